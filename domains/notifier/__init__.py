"""Notifier domain: sends messages by Telegram, or keeps them in a durable outbox when no bot is set."""
