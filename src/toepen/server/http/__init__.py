"""The http wing: one module per resource (:mod:`.routes`: tables, seats, records, invite
links; :mod:`.extras`: hints and catalogs; :mod:`.replays`; :mod:`.review_jobs`: a
game's review; :mod:`.metrics`; :mod:`.pwa`: the installable app), and the door of every
request (:mod:`.guard`: bodies, security headers; :mod:`.deadline`: uvicorn's HTTP
protocol with a reading deadline). It may read the tables, the site's features and the
cluster's figures; nothing but the application imports it.
"""
