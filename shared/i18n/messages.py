"""The core's own words (gateway and its CLI, dialogue, planner, execution, orchestrator), by message id.

Ids are ``<who says it>.<what>``; parameters are ``str.format`` fields (``{reason!c}`` puts a
sentence inside another, see :class:`~shared.i18n.catalog.Catalog`). Domains keep their texts in
a :class:`~shared.i18n.catalog.Catalog` of their own.

>>> t("run.stagnated", "en", reason="I could not find 'Aple'.")
"I stopped: the new plan failed the same way (I could not find 'Aple')."
>>> t("route.confidence_gate", "pt", confidence=0.42)
'Não tenho certeza se entendi o pedido (confiança 42%). Pode confirmar?'
"""

from __future__ import annotations

from shared.i18n.catalog import Catalog

CORE = Catalog(
    {
        # the run's final answer (execution)
        "run.done": {"pt": "Pronto.", "en": "Done."},
        "run.not_completed": {
            "pt": "Não consegui concluir o pedido.",
            "en": "I could not complete the request.",
        },
        "run.failed": {
            "pt": "Não consegui concluir o pedido: {reason}",
            "en": "I could not complete the request: {reason}",
        },
        "run.max_replans_exceeded": {
            "pt": "Não consegui concluir o pedido após {replans} replanejamento(s): {reason}",
            "en": "I could not complete the request after {replans} replanning attempt(s): {reason}",
        },
        "run.stagnated": {
            "pt": "Parei: o novo plano falhou do mesmo jeito ({reason!c}).",
            "en": "I stopped: the new plan failed the same way ({reason!c}).",
        },
        "run.timeout": {
            "pt": "O pedido demorou demais e foi interrompido ({reason!c}).",
            "en": "The request took too long and was stopped ({reason!c}).",
        },
        "run.deadlock": {
            "pt": "O plano não pode ser executado: {reason!c}.",
            "en": "The plan cannot run: {reason!c}.",
        },
        "run.policy": {
            "pt": "O pedido foi interrompido por um limite de execução: {reason!c}.",
            "en": "The request was stopped by an execution limit: {reason!c}.",
        },
        "run.planning_error": {
            "pt": "Encontrei um erro ao planejar o pedido: {reason}",
            "en": "I encountered an error while planning the request: {reason}",
        },
        "run.could_not_process": {
            "pt": "Não consegui processar o pedido.",
            "en": "I could not process the request.",
        },
        # a combined answer that misses parts (execution.synthesis)
        "synthesis.gaps_header": {"pt": "Não consegui responder:", "en": "Could not answer:"},
        # a part not answered without a reason of the domain's (with one, the line is that reason)
        "synthesis.gap_no_reason": {
            "pt": "- uma parte do pedido não foi feita (passo {step})",
            "en": "- one part of the request was not done (step {step})",
        },
        # routing and calling a domain (orchestrator)
        "route.confidence_gate": {
            "pt": "Não tenho certeza se entendi o pedido (confiança {confidence:.0%}). Pode confirmar?",
            "en": "I'm not sure I understood the request (confidence {confidence:.0%}). Can you confirm?",
        },
        "route.no_domain": {
            "pt": "Nenhum domínio registrado oferece '{capability}'.",
            "en": "No registered domain offers '{capability}'.",
        },
        # no URL and no operator reason in what a person reads: those go to the log and the
        # error's details ("detail")
        "route.unreachable": {
            "pt": "O serviço '{domain}' não está acessível no momento.",
            "en": "The {domain} service is not reachable right now.",
        },
        "route.invalid_answer": {
            "pt": "O serviço '{domain}' deu uma resposta inválida.",
            "en": "The {domain} service gave an invalid answer.",
        },
        "domain.unavailable": {
            "pt": "O domínio '{domain}' está indisponível no momento ({reason!c}).",
            "en": "The '{domain}' domain is unavailable right now ({reason!c}).",
        },
        "domain.invalid_answer": {
            "pt": "O domínio '{domain}' respondeu de forma inválida ({reason!c}).",
            "en": "The '{domain}' domain gave an invalid answer ({reason!c}).",
        },
        "domain.not_reachable": {
            "pt": "O serviço '{domain}' não está acessível no momento.",
            "en": "The {domain} service is not reachable right now.",
        },
        "domain.invalid_reply": {
            "pt": "O serviço '{domain}' deu uma resposta inválida.",
            "en": "The {domain} service gave an invalid answer.",
        },
        # a step's progress line when its capability declares none (gateway.channels.progress)
        "progress.generic": {"pt": "Consultando {domain}…", "en": "Asking {domain}…"},
        # the dialogue: confirmations and questions to the person
        "dialogue.confirm_one": {
            "pt": "Só para confirmar: você quer {description}? (sim/não)",
            "en": "Just to confirm: do you want {description}? (yes/no)",
        },
        "dialogue.did_you_mean": {
            "pt": "Não tenho certeza se entendi. Você quis dizer {options}?",
            "en": "I'm not sure I understood. Did you mean {options}?",
        },
        "dialogue.approval_ask": {
            "pt": (
                "Antes de seguir, preciso da sua confirmação. Próximo passo: {actions}. Confirma? (sim/não)"
            ),
            "en": "Before I go on, I need your OK. Next step: {actions}. Go ahead? (yes/no)",
        },
        "dialogue.approval_result_of": {
            "pt": "com o resultado de “{what}”",
            "en": "with the result of “{what}”",
        },
        "dialogue.approval_declined": {
            "pt": "Tudo bem, não fiz nada. O que você gostaria de fazer?",
            "en": "All right, I did nothing. What would you like to do?",
        },
        "dialogue.approval_expired": {
            "pt": "Este pedido expirou sem aprovação; nada foi feito.",
            "en": "This request expired without approval; nothing was done.",
        },
        "dialogue.approval_approved_by": {
            "pt": "Aprovado por {who}.",
            "en": "Approved by {who}.",
        },
        "dialogue.approval_rejected_by": {
            "pt": "{who} recusou o pedido; nada foi feito.",
            "en": "{who} turned the request down; nothing was done.",
        },
        "dialogue.approval_rejected_note": {"pt": "Recusado por {who}.", "en": "Turned down by {who}."},
        "dialogue.approval_deadline_note": {
            "pt": "O prazo para aprovar terminou.",
            "en": "The time to approve ran out.",
        },
        "dialogue.approval_reminder": {
            "pt": "Lembrete: um pedido seu ainda espera aprovação. {question}",
            "en": "Reminder: a request of yours still waits for approval. {question}",
        },
        "dialogue.approval_reminder_note": {"pt": "Lembrete de aprovação.", "en": "Approval reminder."},
        "dialogue.approval_not_pending": {
            "pt": "Este pedido já não espera aprovação; nada foi feito agora.",
            "en": "This request no longer waits for approval; nothing was done now.",
        },
        "dialogue.approval_an_approver": {"pt": "um aprovador", "en": "an approver"},
        "dialogue.approval_tool_words": {
            "pt": "a ação “{action}” (nas palavras da própria ferramenta: “{words}”)",
            "en": "the action “{action}” (in the tool's own words: “{words}”)",
        },
        "dialogue.approval_again": {
            "pt": "Preciso de um sim ou um não. {question}",
            "en": "I need a yes or a no. {question}",
        },
        # an approval's values as the person reads them: a boolean, a date (its weekday, by
        # ``date.weekday()``, and its month, by number: Portuguese writes the month as digits)
        "dialogue.value_yes": {"pt": "sim", "en": "yes"},
        "dialogue.value_no": {"pt": "não", "en": "no"},
        "dialogue.value_date": {"pt": "{weekday}, {day:0>2}/{month}", "en": "{weekday} {day} {month}"},
        "dialogue.value_date_time": {"pt": "{date}, {time}", "en": "{date} at {time}"},
        "dialogue.weekday_0": {"pt": "segunda", "en": "Mon"},
        "dialogue.weekday_1": {"pt": "terça", "en": "Tue"},
        "dialogue.weekday_2": {"pt": "quarta", "en": "Wed"},
        "dialogue.weekday_3": {"pt": "quinta", "en": "Thu"},
        "dialogue.weekday_4": {"pt": "sexta", "en": "Fri"},
        "dialogue.weekday_5": {"pt": "sábado", "en": "Sat"},
        "dialogue.weekday_6": {"pt": "domingo", "en": "Sun"},
        "dialogue.month_1": {"pt": "01", "en": "Jan"},
        "dialogue.month_2": {"pt": "02", "en": "Feb"},
        "dialogue.month_3": {"pt": "03", "en": "Mar"},
        "dialogue.month_4": {"pt": "04", "en": "Apr"},
        "dialogue.month_5": {"pt": "05", "en": "May"},
        "dialogue.month_6": {"pt": "06", "en": "Jun"},
        "dialogue.month_7": {"pt": "07", "en": "Jul"},
        "dialogue.month_8": {"pt": "08", "en": "Aug"},
        "dialogue.month_9": {"pt": "09", "en": "Sep"},
        "dialogue.month_10": {"pt": "10", "en": "Oct"},
        "dialogue.month_11": {"pt": "11", "en": "Nov"},
        "dialogue.month_12": {"pt": "12", "en": "Dec"},
        # a re-issue with a value the person did not say (a failure's suggestion)
        "dialogue.replan_change": {
            "pt": "{after} no lugar de {before} ({what})",
            "en": "{after} instead of {before} ({what})",
        },
        "dialogue.replan_change_added": {"pt": "{after} para {what}", "en": "{after} for {what}"},
        "dialogue.replan_used": {
            "pt": "Usei {changes}, como o serviço sugeriu.",
            "en": "I used {changes}, as the service suggested.",
        },
        "dialogue.replan_ask": {
            "pt": (
                "Não deu certo: {reason} O serviço sugere tentar de novo com {changes}. "
                "Próximo passo: {actions}. Confirma? (sim/não)"
            ),
            "en": (
                "That did not work: {reason} The service suggests trying again with {changes}. "
                "Next step: {actions}. Go ahead? (yes/no)"
            ),
        },
        # a rewritten plan (the LLM planner's) held for the yes: what it does that the person
        # did not ask for ({what}: the clauses below), then the steps the yes is for that no
        # clause named with their parameters ({actions}); each action is named once
        "dialogue.rewrite_ask": {
            "pt": (
                "Não deu certo: {reason} Para seguir, o novo plano {what}. "
                "Próximo passo: {actions}. Confirma? (sim/não)"
            ),
            "en": (
                "That did not work: {reason} To go on, the new plan {what}. "
                "Next step: {actions}. Go ahead? (yes/no)"
            ),
        },
        "dialogue.rewrite_named_ask": {
            "pt": "Não deu certo: {reason} Para seguir, o novo plano {what}. Confirma? (sim/não)",
            "en": "That did not work: {reason} To go on, the new plan {what}. Go ahead? (yes/no)",
        },
        # an action (a capability that changes something) the person's plan never had
        "dialogue.rewrite_adds": {
            "pt": "acrescenta o que você não pediu: {actions}",
            "en": "adds what you did not ask for: {actions}",
        },
        # an action the person's plan had, called more times than it did (a second message)
        "dialogue.rewrite_repeats": {
            "pt": "faz de novo, sem você pedir: {actions}",
            "en": "does again, without your asking: {actions}",
        },
        "dialogue.rewrite_uses": {
            "pt": "usa {changes}, que você não disse",
            "en": "uses {changes}, which you did not say",
        },
        "dialogue.not_an_option": {
            "pt": "Não reconheci essa resposta entre as opções. {question}",
            "en": "I didn't recognise that among the options. {question}",
        },
        "dialogue.part_not_done": {
            "pt": "Não fiz esta parte do pedido: “{part}” (faço um pedido por mensagem; envie-a em seguida).",
            "en": "I didn't do this part of your request: “{part}” (one request per message; send it next).",
        },
        "dialogue.part_cannot_do": {
            "pt": "Não sei fazer esta parte do pedido: “{part}”.",
            "en": "I can't do this part of your request: “{part}”.",
        },
        "dialogue.declined": {
            "pt": "Tudo bem. O que você gostaria de fazer?",
            "en": "All right. What would you like to do?",
        },
        "dialogue.more_options": {"pt": "… (+{more} mais)", "en": "… (+{more} more)"},
        # slot filling: an entity the goal needs, asked before any domain is called
        "dialogue.slot_question": {
            "pt": "Para continuar, preciso saber: {what}.",
            "en": "To go on, I need to know: {what}.",
        },
        "dialogue.slot_invalid": {
            "pt": "Não consegui usar “{value}”. Para continuar, preciso saber: {what}.",
            "en": "I could not use “{value}”. To go on, I need to know: {what}.",
        },
        "dialogue.slot_retry": {"pt": "Não entendi. {question}", "en": "I didn't get that. {question}"},
        "dialogue.slot_give_up": {
            "pt": "Sem {what} não consigo continuar. Quando quiser, faça o pedido de novo dizendo {what}.",
            "en": "I can't go on without {what}. When you like, ask again and include {what}.",
        },
        "dialogue.unsupported_action": {
            "pt": "Não sei fazer isto (“{action}”); o que posso fazer é: {what}.",
            "en": "I can't do that (“{action}”); what I can do is: {what}.",
        },
        "dialogue.cannot_run": {
            "pt": "Não posso atender a este pedido: falta um dado que não sei pedir ({params}).",
            "en": "I can't carry out this request: it needs something I can't ask for ({params}).",
        },
        "dialogue.reply_with_option": {
            "pt": "Responda com o número ou o nome.",
            "en": "Reply with the number or the name.",
        },
        # words that join a list ("(1) x ou (2) y", "Apple e Vale")
        "word.or": {"pt": "ou", "en": "or"},
        "word.and": {"pt": "e", "en": "and"},
        # the command-line client (cli)
        "cli.you": {"pt": "você", "en": "you"},
        "cli.welcome": {
            "pt": "Conectado a {url}. /help mostra os comandos; Ctrl-D sai.",
            "en": "Connected to {url}. /help lists the commands; Ctrl-D quits.",
        },
        "cli.session": {"pt": "sessão {session}", "en": "session {session}"},
        "cli.new_session": {
            "pt": "Nova sessão: a próxima mensagem começa uma conversa nova.",
            "en": "New session: the next message starts a new conversation.",
        },
        "cli.no_session": {
            "pt": "Ainda não há sessão: mande uma mensagem primeiro.",
            "en": "No session yet: send a message first.",
        },
        "cli.options": {"pt": "Opções:", "en": "Options:"},
        "cli.pick_hint": {
            "pt": "Responda com o número ou com suas palavras.",
            "en": "Reply with the number or in your own words.",
        },
        "cli.interrupted": {"pt": "(interrompido)", "en": "(interrupted)"},
        "cli.bye": {"pt": "Até mais!", "en": "Bye!"},
        "cli.help": {
            "pt": "/new       começa uma sessão nova\n"
            "/history   mostra as mensagens desta sessão\n"
            "/help      esta ajuda\n"
            "/quit      sai (Ctrl-D também; Ctrl-C interrompe uma resposta, ou sai no prompt)\n"
            "Setas editam a linha; ↑/↓ percorrem o histórico.",
            "en": "/new       start a new session\n"
            "/history   show this session's messages\n"
            "/help      this help\n"
            "/quit      quit (so does Ctrl-D; Ctrl-C stops an answer, or quits at the prompt)\n"
            "Arrow keys edit the line; ↑/↓ walk the history.",
        },
        "cli.unknown_command": {
            "pt": "Comando desconhecido: {command}. /help mostra os comandos.",
            "en": "Unknown command: {command}. /help lists the commands.",
        },
        "cli.history_empty": {
            "pt": "Nenhuma mensagem nesta sessão ainda.",
            "en": "No messages in this session yet.",
        },
        "cli.history_you": {"pt": "você", "en": "you"},
        "cli.history_bot": {"pt": "orquestrador", "en": "orchestrator"},
        "cli.unreachable": {
            "pt": "Não consegui falar com o gateway em {url}: {reason}",
            "en": "Cannot reach the gateway at {url}: {reason}",
        },
        "cli.auth_refused": {
            "pt": "O gateway em {url} recusou a chave ({status}): {message}\n"
            "Passe --api-key ou defina ORCHESTRATOR_API_KEY com uma das API_KEYS do gateway.",
            "en": "The gateway at {url} refused the key ({status}): {message}\n"
            "Pass --api-key or set ORCHESTRATOR_API_KEY to one of the gateway's API_KEYS.",
        },
        "cli.refused": {
            "pt": "O gateway recusou ({status}): {message}",
            "en": "The gateway refused ({status}): {message}",
        },
        # the A2A channel (gateway.channels.a2a)
        "a2a.no_text": {
            "pt": "A mensagem não tem nenhuma parte de texto.",
            "en": "The message has no text part.",
        },
        "a2a.bad_context": {
            "pt": "contextId deve ter no máximo {limit} caracteres imprimíveis.",
            "en": "contextId must be at most {limit} printable characters.",
        },
        "a2a.failed": {
            "pt": "Não consegui concluir esta mensagem por um erro interno; tente de novo.",
            "en": "This message could not be completed because of an internal error; try again.",
        },
        # standing requests made and managed in conversation (dialogue.standing)
        "standing.confirm_schedule": {
            "pt": "{when} ({zone}) vou mandar “{label}”{delivery}. Confirma?",
            "en": "{when} ({zone}) I will send you “{label}”{delivery}. Confirm?",
        },
        "standing.delivery": {"pt": "no seu {channel}", "en": "to your {channel}"},
        "standing.confirm_watch": {
            "pt": "Vou acompanhar “{label}” {every} e te aviso {when}. Confirma?",
            "en": "I will check “{label}” {every} and tell you {when}. Confirm?",
        },
        "standing.when": {"pt": "quando {direction} {threshold}", "en": "when it {direction} {threshold}"},
        "standing.above": {"pt": "passar de", "en": "goes above"},
        "standing.below": {"pt": "ficar abaixo de", "en": "goes below"},
        "standing.rise": {"pt": "subir", "en": "rises"},
        "standing.fall": {"pt": "cair", "en": "falls"},
        "standing.percent_on_the_day": {"pt": "{number}% no dia", "en": "{number}% on the day"},
        "standing.every_hour": {"pt": "a cada hora", "en": "every hour"},
        "standing.every_hours": {"pt": "a cada {hours} horas", "en": "every {hours} hours"},
        "standing.every_minutes": {"pt": "a cada {minutes} minutos", "en": "every {minutes} minutes"},
        # what a watch polls, run as a turn of the session
        "standing.watch_request": {"pt": "quanto está {subject}?", "en": "how much is {subject}?"},
        "standing.created": {
            "pt": (
                "Pronto: {what}. Próxima vez: {next}. "
                "Para ver, pausar ou cancelar: “quais alertas eu tenho?”."
            ),
            "en": "Done: {what}. Next time: {next}. To see, pause or cancel it: “what alerts do I have?”.",
        },
        "standing.dropped": {
            "pt": "Tudo bem, não criei nada.",
            "en": "All right, I did not set anything up.",
        },
        "standing.none": {
            "pt": "Você não tem alertas nem agendamentos.",
            "en": "You have no alerts or schedules.",
        },
        "standing.listing": {"pt": "Seus alertas e agendamentos:", "en": "Your alerts and schedules:"},
        "standing.not_found": {
            "pt": "Não encontrei um alerta ou agendamento que seja “{target}”.",
            "en": "I found no alert or schedule matching “{target}”.",
        },
        "standing.which": {"pt": "Qual deles? {options}", "en": "Which one? {options}"},
        "standing.paused": {"pt": "Pausado: {what}.", "en": "Paused: {what}."},
        "standing.resumed": {
            "pt": "Retomado: {what}. Próxima vez: {next}.",
            "en": "Resumed: {what}. Next time: {next}.",
        },
        "standing.cancelled": {"pt": "Cancelado: {what}.", "en": "Cancelled: {what}."},
        "standing.limit": {
            "pt": "Você já tem {count} alertas e agendamentos, o máximo permitido; cancele um antes.",
            "en": "You already have {count} alerts and schedules, the most allowed; cancel one first.",
        },
        "standing.too_often": {
            "pt": "Não posso repetir com menos de {minutes} minutos de intervalo.",
            "en": "I cannot repeat more often than every {minutes} minutes.",
        },
        "standing.status_paused": {"pt": "pausado", "en": "paused"},
        # a language's name, for prompts that ask a model to answer in it
        "language.pt": {"pt": "português do Brasil", "en": "Brazilian Portuguese"},
        "language.en": {"pt": "inglês", "en": "English"},
    }
)


def t(message_id: str, language: str, /, **params: object) -> str:
    """The core's message ``message_id`` in ``language``, filled in with ``params``."""
    return CORE.t(message_id, language, **params)
