"""Everything the CLI itself says, in Portuguese and English (the gateway words its own answers)."""

from __future__ import annotations

from dataclasses import dataclass

from cli.options import Language


@dataclass(frozen=True)
class Texts:
    you: str
    welcome: str
    session: str
    new_session: str
    no_session: str
    options: str
    pick_hint: str
    interrupted: str
    bye: str
    help: str
    unknown_command: str
    history_empty: str
    history_you: str
    history_bot: str
    unreachable: str
    auth_refused: str
    refused: str


PT = Texts(
    you="você",
    welcome="Conectado a {url}. /help mostra os comandos; Ctrl-D sai.",
    session="sessão {session}",
    new_session="Nova sessão: a próxima mensagem começa uma conversa nova.",
    no_session="Ainda não há sessão: mande uma mensagem primeiro.",
    options="Opções:",
    pick_hint="Responda com o número ou com suas palavras.",
    interrupted="(interrompido)",
    bye="Até mais!",
    help=(
        "/new       começa uma sessão nova\n"
        "/history   mostra as mensagens desta sessão\n"
        "/help      esta ajuda\n"
        "/quit      sai (Ctrl-D também; Ctrl-C interrompe uma resposta, ou sai no prompt)\n"
        "Setas editam a linha; ↑/↓ percorrem o histórico."
    ),
    unknown_command="Comando desconhecido: {command}. /help mostra os comandos.",
    history_empty="Nenhuma mensagem nesta sessão ainda.",
    history_you="você",
    history_bot="orquestrador",
    unreachable="Não consegui falar com o gateway em {url}: {reason}",
    auth_refused="O gateway em {url} recusou a chave ({status}): {message}\n"
    "Passe --api-key ou defina ORCHESTRATOR_API_KEY com uma das API_KEYS do gateway.",
    refused="O gateway recusou ({status}): {message}",
)

EN = Texts(
    you="you",
    welcome="Connected to {url}. /help lists the commands; Ctrl-D quits.",
    session="session {session}",
    new_session="New session: the next message starts a new conversation.",
    no_session="No session yet: send a message first.",
    options="Options:",
    pick_hint="Reply with the number or in your own words.",
    interrupted="(interrupted)",
    bye="Bye!",
    help=(
        "/new       start a new session\n"
        "/history   show this session's messages\n"
        "/help      this help\n"
        "/quit      quit (so does Ctrl-D; Ctrl-C stops an answer, or quits at the prompt)\n"
        "Arrow keys edit the line; ↑/↓ walk the history."
    ),
    unknown_command="Unknown command: {command}. /help lists the commands.",
    history_empty="No messages in this session yet.",
    history_you="you",
    history_bot="orchestrator",
    unreachable="Cannot reach the gateway at {url}: {reason}",
    auth_refused="The gateway at {url} refused the key ({status}): {message}\n"
    "Pass --api-key or set ORCHESTRATOR_API_KEY to one of the gateway's API_KEYS.",
    refused="The gateway refused ({status}): {message}",
)


def texts_for(language: Language) -> Texts:
    """The CLI's words in ``language``.

    >>> texts_for("pt").you, texts_for("en").you
    ('você', 'you')
    """
    return PT if language == "pt" else EN


def texts_in(tag: str | None, default: Texts) -> Texts:
    """The CLI's words in the language of ``tag`` ("pt-BR", "en"), or ``default`` for another.

    >>> texts_in("pt-BR", EN).you, texts_in("en-US", PT).you, texts_in("fr", PT).you, texts_in(None, EN).you
    ('você', 'you', 'você', 'you')
    """
    primary = (tag or "").split("-")[0].lower()
    return PT if primary == "pt" else EN if primary == "en" else default


@dataclass(frozen=True)
class KeyTexts:
    """What ``orchestrator keys`` says."""

    created: str
    revoked: str
    no_such_key: str
    no_keys: str
    refused: str
    active: str
    revoked_on: str


KEYS_PT = KeyTexts(
    created="Chave {id} criada para o tenant {tenant} (papel {role}). "
    "Guarde-a agora: ela não é mostrada de novo.",
    revoked="Chave {id} revogada.",
    no_such_key="Não há chave com id {id}.",
    no_keys="Nenhuma chave guardada no banco.",
    refused="Recusado: {message}",
    active="ativa",
    revoked_on="revogada em {when}",
)

KEYS_EN = KeyTexts(
    created="Key {id} created for tenant {tenant} (role {role}). Store it now: it is not shown again.",
    revoked="Key {id} revoked.",
    no_such_key="No key with id {id}.",
    no_keys="No keys stored in the database.",
    refused="Refused: {message}",
    active="active",
    revoked_on="revoked on {when}",
)


def key_texts_for(language: Language) -> KeyTexts:
    """``orchestrator keys``'s words in ``language``.

    >>> key_texts_for("pt").active, key_texts_for("en").active
    ('ativa', 'active')
    """
    return KEYS_PT if language == "pt" else KEYS_EN
