"""The site wing: the features around the tables, each a module or a package with its own
endpoints: accounts (:mod:`.accounts`), clubs and tournaments (:mod:`.clubs`), play now
(:mod:`.playnow`), who is here (:mod:`.presence`), score sheets over HTTP
(:mod:`.scoresheets`) and the QR codes of the site's links (:mod:`.qr`). It may read the
tables and the database, never the http, socket or cluster wings.
"""
