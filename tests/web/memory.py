"""Phones without a network: the real Hub and the App's real PhonePads, with in-memory clients that keep every frame
they are sent, exactly in order (a real socket may merge a frame into a newer one, so its stream depends on timing;
this one depends only on what the game thread sends). For tests that step the App themselves."""

from __future__ import annotations

from collections.abc import Callable

from companion.app import App
from companion.web.hub import Client, Hub
from companion.web.publisher import Frames, WebPress


class FakeSocket:
    closed = False

    async def close(self, code: int = 1000) -> bool:
        self.closed = True
        return True


class LocalServer:
    """What the App needs of the server, delivering straight into a Hub."""

    url = "http://192.0.2.1:8080/#j=test-secret"

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def send(self, frames: Frames) -> None:
        self.hub.deliver(frames)

    def tell(self, phone: str, text: str) -> None:
        self.hub.tell(phone, text)


class Pages:
    """Each page's client (a phone by its name, or "table"): what it was sent, taken in order."""

    def __init__(self, app: App, phones: list[str], held: dict[str, str] | None = None) -> None:
        self.hub = Hub(app.events, secret="test-secret", known=phones)
        app.attach_phones(LocalServer(self.hub), held)
        self.app = app
        self.clients = {name: Client(FakeSocket(), "192.0.2.9", name) for name in phones}  # type: ignore[arg-type]
        self.clients["table"] = Client(FakeSocket(), "192.0.2.9", None)  # type: ignore[arg-type]
        self.hub.clients.update(self.clients.values())

    def take(self, name: str) -> list[str]:
        """What ``name``'s page was sent since last asked."""
        client = self.clients[name]
        sent = [frame.text for frame in client.pending]
        client.pending.clear()
        return sent

    def version(self, phone: str) -> int:
        assert self.app.phones is not None
        return self.app.phones.publisher.versions.get(phone, 0)

    def press(self, phone: str, key: str, stale: bool = False) -> None:
        """A press on the view the phone shows now (or, ``stale``, on the one before)."""
        self.app.step(WebPress(phone, key, self.version(phone) - stale))


class Lights:
    """Stands in for what lights and beeps at the table (the device's GPIO indicators and buzzer, the USB keypads
    1-4): every call is heard, whatever its pad (stricter than the hardware, which lights only pads it has)."""

    def __init__(self, heard: Callable[[str], None] | None = None) -> None:
        self.calls: list[str] = []
        self.heard = heard or self.calls.append

    def by_source(self, source: str) -> object | None:
        return object() if source in ("1", "2", "3", "4") else None

    def led(self, source: str, target: str, state: str) -> None:
        self.heard(f"led {source} {target} {state}")

    def beep(self, source: str, ms: int = 80) -> None:
        self.heard(f"beep {source}")

    def close(self) -> None:
        pass
