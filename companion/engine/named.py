"""``NamedTuple`` for the engine's small values, without typing's cost at import.

``typing.NamedTuple`` turns each field's annotation into a ``ForwardRef`` and compiles it (the annotations are strings
here, PEP 563): 0.34 ms a class against 0.14 for the same ``collections.namedtuple``, 4.5 ms of the start-up of every
``replay`` process over the engine's 32 classes (issue 26). This builds that ``collections.namedtuple`` from the
same class body and leaves the annotations the strings they are, and needs no ``typing`` at run time. Type
checkers see ``typing.NamedTuple`` itself.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
    from typing import NamedTuple as NamedTuple
else:
    _KEPT = frozenset(("__annotations__", "__module__", "__qualname__", "__name__"))

    class _NamedTupleType(type):
        def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> type:
            if not bases:  # the NamedTuple base below
                return super().__new__(mcs, name, bases, namespace)
            if bases != (NamedTuple,):
                raise TypeError(f"{name}: a NamedTuple has no other base")
            fields = tuple(namespace.get("__annotations__", {}))
            defaults = [namespace[field] for field in fields if field in namespace]
            if any(field not in namespace for field in fields[len(fields) - len(defaults) :]):
                raise TypeError(f"{name}: a field without a default follows one with a default")
            cls = namedtuple(name, fields, defaults=defaults, module=namespace["__module__"])
            cls.__annotations__ = dict(namespace.get("__annotations__", {}))
            for key, value in namespace.items():
                if key not in _KEPT and key not in fields:
                    setattr(cls, key, value)
            return cls

    class NamedTuple(metaclass=_NamedTupleType):
        pass
