"""The research agents as one graph on our engine (``graph``).

::

    orchestrator ──vague──▶ structurer ──▶ methodologist ──(always)──▶ orchestrator
         │ ──semi_formed / complete──────▶ methodologist
         │ ──ask──▶ await_person (interrupt) ──▶ orchestrator
         └ ──end──▶ END

The orchestrator is the conversational facilitator. It runs in one of three situations, read
from the state: a new idea (classify the maturity and route), feedback just came back from the
methodologist (present it with the options, then wait for the person), or the person answered
(interpret: refine, research, list/compare versions, change direction, finish). Refinement has no
fixed limit: every refinement is one more version.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domains.research import messages
from domains.research.agents import AgentResult, Agents
from domains.research.analysis import is_meta_request, strip_meta
from domains.research.fields import field_of
from domains.research.memory import EventBook, render_summary
from domains.research.replies import Reply, interpret
from domains.research.text import Lang, estimate_tokens, sentence, words
from domains.research.versions import (
    VersionNotFound,
    compare,
    render_compare,
    render_default_compare,
    render_list,
)
from graph import END, GraphBuilder, GraphDefinition, append, merge
from graph.state import thaw

GRAPH_NAME = "research_hypothesis"
INTERRUPT = "await_person"
#: While the facilitator waits for an idea, a short "aprovar" / "listar versões" is still a command
#: (anything longer is the idea, even if it starts with "stop" or "done").
COMMANDS_WHILE_AWAITING_IDEA = frozenset({"finish", "versions", "compare"})
COMMAND_MAX_WORDS = 4


def initial_state(
    session_id: str, idea: str, language: Lang, event_seq: int, *, restarted: bool = False
) -> dict[str, Any]:
    """A fresh conversation (``event_seq`` continues the session's counter across resets).

    ``restarted``: the person restarted the research inside the session; the idea is then empty
    and the facilitator asks for one, saying that the research was restarted.
    """
    return {
        "session_id": session_id,
        "language": language,
        "user_input": idea,
        "idea": idea,
        "current_stage": "new",
        "maturity": None,
        "candidate": None,
        "refinement": None,
        "structurer_output": None,
        "methodologist_output": None,
        "hypothesis_versions": [],
        "archived_versions": [],
        "agent_memory": {},
        "event_seq": event_seq,
        "events": [],
        "conversation_history": [{"role": "person", "text": idea}] if idea else [],
        "facilitator": None,
        "reply": None,
        "route": None,
        "final": None,
        "agent_modes": {},
        "llm_fallbacks": [],
        "restarted": restarted,
    }


def _book(state: Mapping[str, Any], agents: Agents) -> EventBook:
    return EventBook(int(state.get("event_seq") or 0), state.get("agent_memory") or {}, agents.windows)


def _memory(state: Mapping[str, Any], role: str) -> list[Any]:
    return list((state.get("agent_memory") or {}).get(role, []))


def _record(
    book: EventBook,
    agents: Agents,
    role: str,
    result: AgentResult | None,
    default: str,
    fields: dict[str, Any],
    *,
    tokens: tuple[int, int] = (0, 0),
) -> dict[str, Any]:
    """One event for ``role`` (summary from its template) and the mode/fallback bookkeeping."""
    summary = render_summary(agents.configs[role].summary_template, default, fields)
    tin, tout = (result.tokens_input, result.tokens_output) if result else tokens
    extra = {"mode": result.mode if result else "rules"}
    event = book.add(role, summary, tin, tout, extra=extra)
    delta: dict[str, Any] = {}
    if result is not None:
        delta["agent_modes"] = {role: result.mode}
        if result.fallback_reason:
            delta["llm_fallbacks"] = [
                {"event_id": event["event_id"], "agent": role, "reason": result.fallback_reason}
            ]
    return delta


def _say(book: EventBook, agents: Agents, text: str, action: str, detail: str, lang: Lang) -> dict[str, Any]:
    """The facilitator speaks (rule-based text, counted as orchestrator output tokens)."""
    _record(
        book,
        agents,
        "orchestrator",
        None,
        f"{action}: {detail}",
        {"action": action, "detail": detail},
        tokens=(0, estimate_tokens(text)),
    )
    return {
        "facilitator": {"message": text, "action": action, "options": messages.options(lang)},
        "conversation_history": [{"role": "orchestrator", "text": text}],
    }


class _Nodes:
    """The graph's nodes and the facilitator's steps, over one ``agents`` (LLM client + YAML
    configs)."""

    def __init__(self, agents: Agents) -> None:
        self.agents = agents

    def say(self, book: EventBook, text: str, action: str, detail: str, lang: Lang) -> dict[str, Any]:
        return _say(book, self.agents, text, action, detail, lang)

    async def classify(self, state: Mapping[str, Any], book: EventBook, text: str) -> dict[str, Any]:
        lang: Lang = state["language"]
        if is_meta_request(text):
            if state.get("restarted") and not text:
                said = self.say(book, messages.restarted(lang), "restart", "ask_idea", lang)
            else:
                said = self.say(book, messages.ask_idea(lang), "ask_idea", sentence(text) or "-", lang)
            return {**said, "current_stage": "awaiting_idea", "route": "ask"}
        idea = sentence(strip_meta(text))
        result = await self.agents.classify(idea, lang, _memory(state, "orchestrator"))
        maturity = result.output["maturity"]
        delta = _record(
            book,
            self.agents,
            "orchestrator",
            result,
            f"classify: {maturity}",
            {"action": "classify", "detail": maturity, "maturity": maturity},
        )
        vague = maturity == "vague"
        return {
            **delta,
            "idea": idea,
            "maturity": maturity,
            "candidate": None if vague else idea,
            "refinement": None,
            "current_stage": "structuring" if vague else "validating",
            "route": "structurer" if vague else "methodologist",
        }

    def present(self, state: Mapping[str, Any], book: EventBook) -> dict[str, Any]:
        lang: Lang = state["language"]
        latest = state["hypothesis_versions"][-1]
        text = messages.present_feedback(latest, lang)
        said = self.say(book, text, "present", f"V{latest['version']} {latest['feedback']['status']}", lang)
        return {**said, "current_stage": "awaiting_person", "route": "ask"}

    def finish(
        self, book: EventBook, versions: Sequence[Mapping[str, Any]], number: int | None, lang: Lang
    ) -> dict[str, Any]:
        """The conversation ends with the latest version, or with the one the person named."""
        if number is not None and not any(v["version"] == number for v in versions):
            text_out = messages.no_versions_to_compare(lang, number) + "\n\n" + messages.render_options(lang)
            return {**self.say(book, text_out, "finish", f"V{number} missing", lang), "route": "ask"}
        chosen = [v for v in versions if number is None or v["version"] == number]
        final = dict(chosen[-1]) if chosen else None
        detail = f"V{final['version']}" if final else "-"
        said = self.say(book, messages.finished(versions, lang, final), "finish", detail, lang)
        return {**said, "final": final, "current_stage": "done", "route": "end"}

    def list_or_compare(
        self, book: EventBook, versions: Sequence[Mapping[str, Any]], reply: Reply, lang: Lang
    ) -> dict[str, Any]:
        """The versions listed, or two of them compared (the two latest when none is named)."""
        if reply.action == "versions":
            body, detail = render_list(versions, lang), "list"
        elif reply.versions:
            try:
                body = render_compare(compare(versions, *reply.versions), lang)
            except VersionNotFound as exc:
                body = messages.no_versions_to_compare(lang, int(exc.args[0]))
            detail = "compare V{} V{}".format(*reply.versions)
        else:
            body, detail = render_default_compare(versions, lang), "compare"
        text_out = body + "\n\n" + messages.render_options(lang)
        return {**self.say(book, text_out, "versions", detail, lang), "route": "ask"}

    async def change_direction(
        self, state: Mapping[str, Any], book: EventBook, reply: Reply
    ) -> dict[str, Any]:
        """A new idea: the versions so far are archived, and the new idea is classified (or asked for)."""
        lang: Lang = state["language"]
        versions = state["hypothesis_versions"]
        archived = list(state.get("archived_versions") or [])
        if versions:
            archived.append(list(versions))
        reset = {
            "hypothesis_versions": [],
            "archived_versions": archived,
            "structurer_output": None,
            "methodologist_output": None,
            "final": None,
        }
        if is_meta_request(reply.text):
            said = self.say(book, messages.ask_new_idea(lang), "new_idea", "ask", lang)
            return {**reset, **said, "current_stage": "awaiting_idea", "route": "ask"}
        return {**reset, "user_input": reply.text, **await self.classify(state, book, reply.text)}

    def ask_details(self, state: Mapping[str, Any], book: EventBook) -> dict[str, Any]:
        """A refinement without details: the methodologist's clarifications, asked in the field's terms."""
        lang: Lang = state["language"]
        versions = state["hypothesis_versions"]
        clar = (state.get("methodologist_output") or {}).get("clarifications") or {}
        # the person's own idea says the field; the latest question only when the idea does not
        field = field_of(str(state.get("idea") or ""))
        if field == "general" and versions:
            field = field_of(str(versions[-1]["question"]))
        details = messages.ask_details(clar, lang, field)
        text_out = details + "\n\n" + messages.render_options(lang)
        return {**self.say(book, text_out, "ask_details", "-", lang), "route": "ask"}

    async def answer(self, state: Mapping[str, Any], book: EventBook, text: str) -> dict[str, Any]:
        """Interpret the person's answer; the person's own words are added to the history by the caller."""
        lang: Lang = state["language"]
        reply = interpret(text)
        if state["current_stage"] == "awaiting_idea" and not (
            reply.action in COMMANDS_WHILE_AWAITING_IDEA and len(words(text)) <= COMMAND_MAX_WORDS
        ):
            return {"user_input": text, **await self.classify(state, book, text)}
        versions = state["hypothesis_versions"]
        if reply.action == "finish":
            return self.finish(book, versions, reply.versions[0] if reply.versions else None, lang)
        if reply.action == "research":
            return {
                **self.say(book, messages.research_unavailable(lang), "research", "unavailable", lang),
                "route": "ask",
            }
        if reply.action in ("versions", "compare"):
            return self.list_or_compare(book, versions, reply, lang)
        # "restart" is the service's to do (it clears the stored memory too, see
        # ResearchConversations); reaching here it is a change of direction
        if reply.action in ("new_idea", "restart"):
            return await self.change_direction(state, book, reply)
        if reply.action == "empty" or (reply.action == "refine" and is_meta_request(reply.text)):
            return self.ask_details(state, book)
        # a refinement with details: the structurer writes the next version, the methodologist judges it
        delta = _record(
            book,
            self.agents,
            "orchestrator",
            None,
            f"refine: {reply.text}",
            {"action": "refine", "detail": reply.text},
        )
        return {**delta, "refinement": reply.text, "current_stage": "structuring", "route": "structurer"}

    async def orchestrator(self, state: Mapping[str, Any]) -> dict[str, Any]:
        book = _book(state, self.agents)
        if state.get("reply") is not None:
            text = str(state["reply"])
            delta = await self.answer(state, book, text)
            said = delta.get("conversation_history", [])
            delta["conversation_history"] = [{"role": "person", "text": text}, *said]
            delta["reply"] = None
        elif state.get("current_stage") == "reviewed":
            delta = self.present(state, book)
        else:
            delta = await self.classify(state, book, str(state["idea"]))
        # values read from the state are read-only views: hand the engine plain JSON data
        return dict(thaw({**delta, **book.delta()}))

    async def structurer(self, state: Mapping[str, Any]) -> dict[str, Any]:
        book = _book(state, self.agents)
        lang: Lang = state["language"]
        versions = state["hypothesis_versions"]
        refinement = state.get("refinement")
        previous = versions[-1]["question"] if versions and refinement else None
        result = await self.agents.structure(
            state["idea"],
            lang,
            previous_question=previous,
            details=refinement,
            memory=_memory(state, "structurer"),
        )
        question = result.output["structured_question"]
        delta = _record(
            book,
            self.agents,
            "structurer",
            result,
            f"V{len(versions) + 1}: {question}",
            {"version": len(versions) + 1, "question": question},
        )
        return thaw(
            {
                **delta,
                **book.delta(),
                "structurer_output": result.output,
                "candidate": question,
                "refinement": None,
                "current_stage": "validating",
            }
        )

    async def methodologist(self, state: Mapping[str, Any]) -> dict[str, Any]:
        book = _book(state, self.agents)
        lang: Lang = state["language"]
        question = str(state["candidate"])
        result = await self.agents.evaluate(question, lang, _memory(state, "methodologist"))
        out = result.output
        number = len(state["hypothesis_versions"]) + 1
        delta = _record(
            book,
            self.agents,
            "methodologist",
            result,
            f"V{number} {out['status']}: {question}",
            {"version": number, "status": out["status"], "question": question},
        )
        version = {
            "version": number,
            "question": question,
            "feedback": {"status": out["status"], "improvements": out["improvements"]},
            "justification": out["justification"],
            "source": "structurer" if state.get("structurer_output") else "person",
            "mode": result.mode,
            "model": result.model,
            "fallback_reason": result.fallback_reason,
            "event_id": book.events[-1]["event_id"],
        }
        return thaw(
            {
                **delta,
                **book.delta(),
                "methodologist_output": out,
                "hypothesis_versions": [*state["hypothesis_versions"], version],
                "current_stage": "reviewed",
            }
        )


def route_from_orchestrator(state: Mapping[str, Any]) -> str:
    return str(state["route"])


def route_after_methodologist(state: Mapping[str, Any]) -> str:
    # always back to the orchestrator: it, not the methodologist, agrees the next step with the person
    return "orchestrator"


def build_graph(agents: Agents) -> GraphDefinition:
    """Compile the graph; its nodes are the methods of one :class:`_Nodes` over ``agents``."""
    nodes = _Nodes(agents)
    return (
        GraphBuilder(
            GRAPH_NAME,
            reducers={
                "events": append,
                "conversation_history": append,
                "llm_fallbacks": append,
                "agent_modes": merge,
            },
        )
        .add_node("orchestrator", nodes.orchestrator)
        .add_node("structurer", nodes.structurer)
        .add_node("methodologist", nodes.methodologist)
        .add_interrupt(INTERRUPT, payload_key="facilitator")
        .add_conditional_edges(
            "orchestrator",
            route_from_orchestrator,
            {"structurer": "structurer", "methodologist": "methodologist", "ask": INTERRUPT, "end": END},
        )
        .add_edge("structurer", "methodologist")
        .add_conditional_edges("methodologist", route_after_methodologist, {"orchestrator": "orchestrator"})
        .add_edge(INTERRUPT, "orchestrator")
        .set_entry("orchestrator")
        .compile()
    )
