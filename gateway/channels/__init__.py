"""Channels: each way a person or a program reaches the platform (OpenAI chat and Responses,
native REST, A2A, MCP, Telegram), normalised into one turn."""
