"""Dialogue: the rules of a conversation turn, next to the planner.

The turn's typed state, how a message is read against the session (an answer to the pending
question, a follow-up of the last goal, a confirmation, a resend of the last answer, a continued
domain conversation) and the conversation graph that runs understand -> plan -> execute -> respond.
The gateway only feeds it messages and stores what it returns.
"""
