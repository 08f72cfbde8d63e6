"""Everything the research domain says to people, by message id, in Brazilian Portuguese and English.

The texts say how each analysis was made: rule-based offline analysis is named as such, an LLM
answer names the model, and a fallback says why the LLM was not used.

>>> MESSAGES.t("version.missing", "en", number=3)
'There is no V3.'
>>> MESSAGES.t("status.needs_refinement", "pt-BR")
'precisa de refinamento'
"""

from __future__ import annotations

from shared.i18n import Catalog

#: What the facilitator offers after each assessment, in this order (ids ``option.<action>.*``).
ACTIONS = ("refine", "research", "new_idea", "versions", "finish")

MESSAGES = Catalog(
    {
        # the service's own answers
        "no_conversation": {
            "pt": "Não há conversa de pesquisa em andamento nesta sessão. Descreva sua ideia ou "
            'observação para começar (ex.: "Método incremental é mais rápido").',
            "en": "There is no research conversation in progress in this session. Describe your idea "
            'or observation to start (e.g. "pair programming is faster").',
        },
        "empty": {
            "pt": "Descreva a ideia ou observação que você quer transformar em hipótese.",
            "en": "Describe the idea or observation you want to turn into a hypothesis.",
        },
        "reset": {
            "pt": "Sessão de pesquisa reiniciada: estado ativo e memória dos agentes limpos; o histórico "
            "de eventos foi mantido.",
            "en": "Research session reset: active state and agent memory cleared; the event history "
            "was kept.",
        },
        # a hypothesis version's assessment
        "status.approved": {"pt": "aprovada", "en": "approved"},
        "status.needs_refinement": {"pt": "precisa de refinamento", "en": "needs refinement"},
        "status.rejected": {"pt": "rejeitada", "en": "rejected"},
        # the options the facilitator offers
        "options.header": {"pt": "O que você quer fazer agora?", "en": "What would you like to do now?"},
        "option.refine.say": {"pt": "refinar: <detalhes>", "en": "refine: <details>"},
        "option.refine.label": {
            "pt": "refinar com novos detalhes (gera a próxima versão)",
            "en": "refine with new details (makes the next version)",
        },
        "option.research.say": {"pt": "pesquisar", "en": "research literature"},
        "option.research.label": {
            "pt": "pesquisar a literatura sobre o tema",
            "en": "search the literature on the topic",
        },
        "option.new_idea.say": {"pt": "nova ideia: <texto>", "en": "new idea: <text>"},
        "option.new_idea.label": {
            "pt": "mudar de direção com outra ideia",
            "en": "change direction with another idea",
        },
        "option.versions.say": {
            "pt": "listar versões | comparar v1 e v2",
            "en": "list versions | compare v1 and v2",
        },
        "option.versions.label": {"pt": "ver ou comparar as versões", "en": "see or compare the versions"},
        "option.finish.say": {"pt": "aprovar | encerrar", "en": "approve | finish"},
        "option.finish.label": {"pt": "encerrar com a versão atual", "en": "finish with the current version"},
        # how an analysis was made
        "mode.llm": {"pt": "(Análise feita pelo LLM {model}.)", "en": "(Analysis by the LLM {model}.)"},
        "mode.offline_fallback": {
            "pt": "(O LLM não deu uma resposta válida — {reason}; usei a análise por regras, modo offline.)",
            "en": "(The LLM gave no valid answer — {reason}; I used the rule-based offline analysis.)",
        },
        "mode.offline": {
            "pt": "(Análise por regras, modo offline sem LLM: verifico população, variáveis, métrica, "
            "comparação e efeito mensurável.)",
            "en": "(Rule-based analysis, offline without an LLM: I check population, variables, metric, "
            "comparison and measurable effect.)",
        },
        # the methodologist's feedback
        "feedback.assessed": {
            "pt": "O Metodologista avaliou a V{number}: {label}.",
            "en": "The Methodologist assessed V{number}: {label}.",
        },
        "feedback.justification": {
            "pt": "Justificativa: {justification}",
            "en": "Justification: {justification}",
        },
        "feedback.missing": {"pt": "O que falta:", "en": "What is missing:"},
        "feedback.ready": {
            "pt": "A hipótese está pronta. Você pode encerrar com ela ou continuar refinando.",
            "en": "The hypothesis is ready. You can finish with it or keep refining.",
        },
        # the facilitator's questions and closing words
        "ask.idea": {
            "pt": 'Vamos lá! Me conta a sua ideia ou observação — por exemplo: "Método incremental é mais '
            'rápido". Eu estruturo uma questão de pesquisa e o Metodologista avalia se ela é testável.',
            "en": 'Let\'s do it! Tell me your idea or observation — e.g. "pair programming is faster". '
            "I will structure a research question and the Methodologist will check whether it is "
            "testable.",
        },
        "ask.details": {
            "pt": "Claro, vamos refinar. Me diga os detalhes",
            "en": "Sure, let's refine. Tell me the details",
        },
        "ask.new_idea": {
            "pt": "Tudo bem, vamos mudar de direção. Qual é a nova ideia?",
            "en": "All right, let's change direction. What is the new idea?",
        },
        "research.unavailable": {
            "pt": "O agente de pesquisa bibliográfica (Pesquisador) ainda não está disponível neste serviço "
            "— ele está no backlog e não há busca de literatura offline. Sua hipótese e as versões "
            "continuam guardadas.",
            "en": "The literature-search agent (Researcher) is not available in this service yet — it is "
            "on the backlog and there is no offline literature search. Your hypothesis and its versions "
            "are kept.",
        },
        "finished.empty": {
            "pt": "Conversa encerrada sem hipótese (nenhuma versão foi avaliada).",
            "en": "Conversation finished without a hypothesis (no version was assessed).",
        },
        "finished.final": {
            "pt": 'Hipótese final (V{number}, {label}): "{question}"\nHistórico: {trail}',
            "en": 'Final hypothesis (V{number}, {label}): "{question}"\nHistory: {trail}',
        },
        # listing and comparing versions
        "version.missing": {"pt": "Não existe a V{number}.", "en": "There is no V{number}."},
        "versions.none": {
            "pt": "Ainda não há versões da hipótese.",
            "en": "There are no hypothesis versions yet.",
        },
        "versions.header": {"pt": "Versões da hipótese:", "en": "Hypothesis versions:"},
        "versions.gaps": {"pt": "— falta: {aspects}", "en": "— missing: {aspects}"},
        "compare.header": {"pt": "Comparação V{a} → V{b}:", "en": "Comparison V{a} → V{b}:"},
        "compare.added": {"pt": "Acrescentado: {words}", "en": "Added: {words}"},
        "compare.removed": {"pt": "Removido: {words}", "en": "Removed: {words}"},
        "compare.assessment": {"pt": "Avaliação: {before} → {after}", "en": "Assessment: {before} → {after}"},
        "compare.resolved": {"pt": "Lacunas resolvidas: {aspects}", "en": "Gaps resolved: {aspects}"},
        "compare.remaining": {"pt": "Lacunas que continuam: {aspects}", "en": "Gaps remaining: {aspects}"},
        "compare.new": {"pt": "Lacunas novas: {aspects}", "en": "New gaps: {aspects}"},
        "compare.same_question": {
            "pt": "O texto da questão é o mesmo nas duas versões.",
            "en": "The question's wording is the same in both versions.",
        },
        "compare.only_one": {
            "pt": "Só existe a V{number}: ainda não há duas versões para comparar.",
            "en": "There is only V{number}: there are not two versions to compare yet.",
        },
        "compare.no_aspects": {"pt": "nenhuma", "en": "none"},
        # the rule-based structurer (analysis.structure)
        "question.comparative": {
            "pt": "Como {subject} impacta {dimension}{other}?",
            "en": "How does {subject} affect {dimension}{other}?",
        },
        "question.compared_with": {"pt": "em comparação com {other}", "en": "compared with {other}"},
        "question.verb": {
            "pt": "Em que medida {subject} {verb} {object}?",
            "en": "To what extent does {subject} {verb} {object}?",
        },
        "question.open": {
            "pt": "Como {idea} pode ser observado e medido de forma sistemática?",
            "en": "How can {idea} be observed and measured systematically?",
        },
        "question.dimension_of": {"pt": "o quanto é {word}", "en": "{word}"},
        "question.the_effect": {"pt": "o efeito", "en": "the effect"},
        "structure.context": {
            "pt": 'Observação da pessoa: "{idea}".',
            "en": 'The person\'s observation: "{idea}".',
        },
        "structure.problem": {
            "pt": "Ainda não está definido para quem, medido como e em quanto {subject} afeta {dimension}.",
            "en": "It is not yet defined for whom, measured how and by how much {subject} affects "
            "{dimension}.",
        },
        "structure.problem_refined": {
            "pt": 'Refinamento com os detalhes: "{details}".',
            "en": 'Refinement with the details: "{details}".',
        },
        "structure.contribution": {
            "pt": "Evidência empírica que confirme ou refute a observação, útil para decidir quando "
            "adotar a prática.",
            "en": "Empirical evidence that confirms or refutes the observation, useful to decide "
            "when to adopt the practice.",
        },
        # the rule-based methodologist (analysis.evaluate): the five aspects a hypothesis needs
        "aspect.population": {"pt": "população", "en": "population"},
        "aspect.variables": {"pt": "variáveis", "en": "variables"},
        "aspect.metric": {"pt": "métricas", "en": "metrics"},
        "aspect.comparison": {"pt": "comparação", "en": "comparison"},
        "aspect.effect": {"pt": "efeito", "en": "effect"},
        "gap.population.missing": {
            "pt": "Não diz quem será estudado.",
            "en": "It does not say who will be studied.",
        },
        "gap.population.question": {"pt": "Quem você quer estudar?", "en": "Who do you want to study?"},
        "gap.variables.missing": {
            "pt": "Não estão claras a variável independente (o que é aplicado ou muda) e a dependente "
            "(o resultado observado).",
            "en": "The independent variable (what is applied or changes) and the dependent one (the "
            "observed outcome) are not clear.",
        },
        "gap.variables.question": {
            "pt": "O que muda e qual resultado você espera observar?",
            "en": "What changes, and which outcome do you expect to observe?",
        },
        "gap.metric.missing": {
            "pt": "Não diz como o efeito será medido.",
            "en": "It does not say how the effect will be measured.",
        },
        "gap.metric.question": {
            "pt": "Como você vai medir o resultado?",
            "en": "How will you measure the outcome?",
        },
        "gap.comparison.missing": {
            "pt": "Não diz em relação a quê o efeito é comparado.",
            "en": "It does not say what the effect is compared with.",
        },
        "gap.comparison.question": {"pt": "Comparado com o quê?", "en": "Compared with what?"},
        "gap.effect.missing": {
            "pt": "Não há efeito mensurável (número, percentual ou direção).",
            "en": "There is no measurable effect (a number, percentage or direction).",
        },
        "gap.effect.question": {
            "pt": "Quanto de efeito você espera, e em que direção?",
            "en": "How large an effect do you expect, and in which direction?",
        },
        "justification.approved": {
            "pt": "Testável: população ({population}), variáveis ({independent} → {dependent}), métrica "
            "({metric}), comparação ({comparison}) e efeito mensurável ({effect}) estão definidos.",
            "en": "Testable: population ({population}), variables ({independent} → {dependent}), metric "
            "({metric}), comparison ({comparison}) and measurable effect ({effect}) are defined.",
        },
        "justification.rejected": {
            "pt": "Não identifico o que seria aplicado nem o que seria medido: como está, a afirmação "
            "não pode ser testada empiricamente.",
            "en": "I cannot identify what would be applied or what would be measured: as stated, the "
            "claim cannot be tested empirically.",
        },
        "justification.needs_refinement": {
            "pt": "A ideia tem potencial, mas falta especificar: {aspects}.",
            "en": "The idea has potential, but it still needs: {aspects}.",
        },
        # hints with examples from the idea's own field (domains.research.fields): one suggestion
        # per aspect and one example of a refinement, for each field and a neutral one
        "hint.software.population": {
            "pt": "Especifique a população, ex.: 'em equipes de 2-5 devs' ou 'em times de produto de uma "
            "empresa'.",
            "en": "Name the population, e.g. 'in teams of 2-5 developers' or 'in a company's product teams'.",
        },
        "hint.software.variables": {
            "pt": "Diga o que é aplicado (ex.: 'método incremental') e qual resultado muda "
            "(ex.: 'tempo de entrega').",
            "en": "Say what is applied (e.g. 'incremental method') and which outcome changes "
            "(e.g. 'delivery time').",
        },
        "hint.software.metric": {
            "pt": "Defina a métrica, ex.: 'tempo de entrega medido por sprints' ou 'defeitos por mil "
            "linhas'.",
            "en": "Define the metric, e.g. 'delivery time measured in sprints' or 'defects per thousand "
            "lines'.",
        },
        "hint.software.comparison": {
            "pt": "Indique a base de comparação, ex.: 'comparado ao método cascata' ou 'antes e depois da "
            "adoção'.",
            "en": "State the baseline, e.g. 'compared with waterfall' or 'before and after adoption'.",
        },
        "hint.software.effect": {
            "pt": "Declare o efeito esperado, ex.: 'reduz o tempo de entrega em 30%'.",
            "en": "State the expected effect, e.g. 'reduces delivery time by 30%'.",
        },
        "hint.software.details": {
            "pt": '(Ex.: "em equipes de 2-5 devs, medido por sprints, comparado ao cascata".)',
            "en": '(E.g. "in teams of 2-5 developers, measured in sprints, compared with waterfall".)',
        },
        "hint.health.population": {
            "pt": "Especifique os participantes, ex.: 'em adultos de 18 a 30 anos' ou 'em motoristas "
            "profissionais'.",
            "en": "Name the participants, e.g. 'in adults aged 18 to 30' or 'in professional drivers'.",
        },
        "hint.health.variables": {
            "pt": "Diga o que é aplicado e em que dose (ex.: '200 mg de cafeína') e qual resultado muda "
            "(ex.: 'recordação de palavras').",
            "en": "Say what is applied and how much (e.g. '200 mg of caffeine') and which outcome changes "
            "(e.g. 'word recall').",
        },
        "hint.health.metric": {
            "pt": "Defina a medida e a duração, ex.: 'medido por um teste ou escala validada (de memória, "
            "de humor, de ansiedade), após 4 semanas' ou 'tempo de reação em milissegundos'.",
            "en": "Define the measure and the duration, e.g. 'measured by a validated test or scale "
            "(memory, mood, anxiety) after 4 weeks' or 'reaction time in milliseconds'.",
        },
        "hint.health.comparison": {
            "pt": "Indique a base de comparação, ex.: 'comparado a um grupo placebo' ou 'antes e depois "
            "da intervenção'.",
            "en": "State the baseline, e.g. 'compared with a placebo group' or 'before and after the "
            "intervention'.",
        },
        "hint.health.effect": {
            "pt": "Declare o efeito esperado, ex.: 'aumenta a recordação em 10%' ou 'reduz o tempo de "
            "reação em 50 ms'.",
            "en": "State the expected effect, e.g. 'improves recall by 10%' or 'cuts reaction time by "
            "50 ms'.",
        },
        "hint.health.details": {
            "pt": '(Ex.: "em adultos de 18 a 30 anos, medido por um teste de memória, durante 4 semanas, '
            'comparado a um grupo placebo".)',
            "en": '(E.g. "in adults aged 18 to 30, measured by a memory test, over 4 weeks, compared with '
            'a placebo group".)',
        },
        "hint.education.population": {
            "pt": "Especifique os participantes, ex.: 'em alunos do 9º ano de escolas públicas' ou "
            "'em estudantes de graduação'.",
            "en": "Name the participants, e.g. 'in 9th-grade pupils at state schools' or 'in "
            "undergraduate students'.",
        },
        "hint.education.variables": {
            "pt": "Diga o que é aplicado (ex.: 'aulas com projetos práticos') e qual resultado muda "
            "(ex.: 'notas em matemática').",
            "en": "Say what is applied (e.g. 'project-based classes') and which outcome changes "
            "(e.g. 'maths grades').",
        },
        "hint.education.metric": {
            "pt": "Defina a medida e a duração, ex.: 'nota média na prova final, ao longo de um semestre'.",
            "en": "Define the measure and the duration, e.g. 'mean final exam grade over one term'.",
        },
        "hint.education.comparison": {
            "pt": "Indique a base de comparação, ex.: 'comparado a turmas com aulas expositivas'.",
            "en": "State the baseline, e.g. 'compared with classes taught by lecture'.",
        },
        "hint.education.effect": {
            "pt": "Declare o efeito esperado, ex.: 'aumenta a nota média em 1 ponto'.",
            "en": "State the expected effect, e.g. 'raises the mean grade by 1 point'.",
        },
        "hint.education.details": {
            "pt": '(Ex.: "em alunos do 9º ano, medido pela nota da prova final, durante um semestre, '
            'comparado a turmas com aulas expositivas".)',
            "en": '(E.g. "in 9th-grade pupils, measured by the final exam grade, over one term, compared '
            'with lecture-based classes".)',
        },
        "hint.general.population": {
            "pt": "Especifique quem ou o que será estudado, ex.: 'em adultos de 25 a 40 anos' ou 'em "
            "lojas de uma cidade'.",
            "en": "Name who or what will be studied, e.g. 'in adults aged 25 to 40' or 'in shops in one "
            "city'.",
        },
        "hint.general.variables": {
            "pt": "Diga o que é aplicado ou muda (a causa) e qual resultado você espera observar (o efeito).",
            "en": "Say what is applied or changes (the cause) and which outcome you expect to observe "
            "(the effect).",
        },
        "hint.general.metric": {
            "pt": "Defina como o resultado será medido e por quanto tempo, ex.: 'medido por questionário, "
            "ao longo de 3 meses'.",
            "en": "Define how the outcome will be measured and for how long, e.g. 'measured by a "
            "questionnaire over 3 months'.",
        },
        "hint.general.comparison": {
            "pt": "Indique a base de comparação, ex.: 'comparado a um grupo controle' ou 'antes e depois'.",
            "en": "State the baseline, e.g. 'compared with a control group' or 'before and after'.",
        },
        "hint.general.effect": {
            "pt": "Declare o efeito esperado com um número ou direção, ex.: 'aumenta em 10%'.",
            "en": "State the expected effect with a number or a direction, e.g. 'increases by 10%'.",
        },
        "hint.general.details": {
            "pt": '(Ex.: "em adultos de 25 a 40 anos, medido por questionário, durante 3 meses, comparado '
            'a um grupo controle".)',
            "en": '(E.g. "in adults aged 25 to 40, measured by a questionnaire, over 3 months, compared '
            'with a control group".)',
        },
        # restarting the research inside a session
        "restart.ask_idea": {
            "pt": "Pesquisa reiniciada: as versões e a memória dos agentes foram limpas (o histórico de "
            "eventos foi mantido). Qual é a ideia ou observação que você quer transformar em hipótese?",
            "en": "Research restarted: the versions and the agents' memory were cleared (the event "
            "history was kept). What idea or observation do you want to turn into a hypothesis?",
        },
        # what an agent's LLM prompt carries
        "agent.memory": {"pt": "Memória recente deste agente:", "en": "This agent's recent memory:"},
    }
)
