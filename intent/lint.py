"""Registration lint: goals of different domains that people could confuse.

When a domain registers, its goals are compared with every other domain's goals by TF-IDF cosine
of their descriptions + examples; pairs above the threshold are reported so a conflict is
visible before it misroutes people.
"""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel

from intent.embedded import goal_documents
from intent.features import TfidfFeatures
from shared.catalog import Catalog


class GoalOverlap(BaseModel):
    domain_a: str
    goal_a: str
    domain_b: str
    goal_b: str
    similarity: float


def goal_overlaps(catalog: Catalog, threshold: float = 0.3, domain: str | None = None) -> list[GoalOverlap]:
    """Cross-domain goal pairs whose text similarity is at least ``threshold``, most similar first.

    ``domain`` limits the report to pairs involving that domain (the one registering).
    """
    goals = catalog.goals()
    if len(goals) < 2:
        return []
    texts = []
    for ref in goals:
        fixed, examples = goal_documents(ref, catalog)
        texts.append(" . ".join([*fixed, *examples]))
    features = TfidfFeatures().fit(texts)
    x = features.transform(texts)
    dense = np.zeros((x.n_rows, x.n_cols), dtype=np.float32)
    dense[x.row_ids(), x.indices] = x.data
    dense[:, 0] = 0.0  # bias column
    dense /= np.maximum(np.linalg.norm(dense, axis=1, keepdims=True), 1e-12)
    sims = dense @ dense.T
    found = []
    for i, a in enumerate(goals):
        for j in range(i + 1, len(goals)):
            b = goals[j]
            if a.domain == b.domain or (domain is not None and domain not in (a.domain, b.domain)):
                continue
            if sims[i, j] >= threshold:
                found.append(
                    GoalOverlap(
                        domain_a=a.domain,
                        goal_a=a.goal.goal,
                        domain_b=b.domain,
                        goal_b=b.goal.goal,
                        similarity=round(float(sims[i, j]), 3),
                    )
                )
    return sorted(found, key=lambda o: -o.similarity)
