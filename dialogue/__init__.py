"""Dialogue: the rules of a conversation turn, next to the planner.

The turn's typed state, how a message is read against the session (an answer to the pending
question, a follow-up of the last goal, a confirmation, a resend of the last answer, a continued
domain conversation) and the conversation graph that runs understand -> plan -> execute -> respond.
The gateway only feeds it messages and stores what it returns.

* ``state``  — :class:`~dialogue.state.TurnState` (session fields + the current ``Turn``);
* ``rules``  — the dialogue rules, plain functions over typed models and the catalog;
* ``choice`` — reading a reply against a question's options (value, position, alias, yes/no);
* ``slots``  — slot filling: asking for an entity the plan lacks, and reading the reply;
* ``graph``  — :class:`~dialogue.graph.ConversationGraph`, the nodes that call intent, planner,
  execution and (through the ``Domains`` protocol) the orchestrator.
"""
