"""Web pads: phones as private pads and any screen as the table view, served by the companion (docs/web-pads.md).

The server (server.py, on its own thread) and its shared state (hub.py) only pass presses in and frames out; what each
page is sent is decided on the game thread from public queries and one seat's private view (views.py, publisher.py).
Above the game flow: it may import the flow, the engine, the catalogs, display/'s screen model and hardware/'s
events; only the App imports it. Imported only when ``web.enabled`` is on and the companion runs for a table
(aiohttp is the ``web`` extra).
"""
