# One image for the gateway and every domain service; the command picks which one runs.
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
COPY pyproject.toml README.md ./
COPY shared ./shared
COPY sdk ./sdk
COPY graph ./graph
COPY cli ./cli
COPY gateway ./gateway
COPY intent ./intent
COPY planner ./planner
COPY execution ./execution
COPY orchestrator ./orchestrator
COPY dialogue ./dialogue
COPY domains ./domains
COPY domains.bootstrap.json ./
RUN pip install --no-cache-dir .
EXPOSE 8000
CMD ["python", "-m", "gateway"]
