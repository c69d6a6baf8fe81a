"""The cluster wing (``--redis``): many processes, one game; leases, relay and frames over
Redis (:mod:`.core`), behind the tables' seam (:mod:`.seam`). Only the application's
start-up (and the metrics that report it) import it; the tables wing sees it through
:class:`toepen.server.tables.seam.Seam` alone, and it reaches the tables through
:class:`toepen.server.tables.seam.Host` alone.
"""
