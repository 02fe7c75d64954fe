"""Web pads: phones as private pads and any screen as the table view, served by the companion (docs/web-pads.md).

Imported only when ``web.enabled`` is on and the companion runs for a table (aiohttp is the ``web`` extra).
"""
