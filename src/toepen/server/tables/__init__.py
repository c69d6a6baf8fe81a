"""The tables wing: a table in memory and everything that plays it.

One table (:mod:`.table`), the lobby of all tables (:mod:`.lobby`), the table master that
checks, commits, applies and broadcasts each action (:mod:`.master`), what happens next
(:mod:`.scheduler`: a bot's move, a stand-in, the idle clock), chat, reactions and rematch
(:mod:`.social`), the bot pool (:mod:`.botpool`), the operator's external bot programs
(:mod:`.external_bots`), the rules as a table's JSON (:mod:`.presets`), the one seam to
where the tables live (:mod:`.seam`: a lone process, or a cluster behind the same
interface; and what the cluster may ask of the tables, :mod:`.host`) and what the master
asks of the metrics (:mod:`.ports`). It imports the
server's base (``protocol``, ``names``) and ``db``, never ``socket``, ``http``, ``site``
or ``cluster``.
"""
