"""``NamedTuple`` for the engine's small values, without typing's cost at import.

Every ``replay`` process builds the engine's 32 NamedTuple classes before it reads a line. ``typing.NamedTuple``
turns each field's annotation into a ``ForwardRef`` and compiles it (the annotations are strings here, PEP 563), and
``collections.namedtuple`` under it compiles a constructor for each class: 0.34 ms a class, 11 ms of a start-up
whose bare interpreter takes 35 (issue 26). Why not ``collections.namedtuple`` itself: it compiles a constructor per
class (0.14 ms each). This builds the same class from the same body, as ``collections.namedtuple`` does (the same
methods, the same C field getters), with the constructor compiled once per number of fields and renamed, and leaves
the annotations the strings they are: about 0.05 ms a class, no ``typing`` at run time. Type checkers see
``typing.NamedTuple`` itself.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any
    from typing import NamedTuple as NamedTuple
else:
    import sys
    from types import FunctionType

    try:
        from _collections import _tuplegetter as _getter  # what collections.namedtuple uses
    except ImportError:  # another Python: a property reads the field too, a little slower
        from operator import itemgetter

        def _getter(index: int, doc: str) -> property:
            return property(itemgetter(index), doc=doc)

    _KEPT = frozenset(("__annotations__", "__module__", "__qualname__", "__name__"))
    _constructors: dict[int, FunctionType] = {}

    def _constructor(name: str, fields: tuple[str, ...], defaults: tuple[Any, ...]) -> FunctionType:
        """``lambda _cls, <fields>: tuple.__new__(_cls, (<fields>))``, compiled once per number of fields."""
        template = _constructors.get(len(fields))
        if template is None:
            names = ", ".join(f"_{index}" for index in range(len(fields)))
            template = eval(  # a fixed text of generated names, as in collections.namedtuple
                f"lambda _cls, {names}: _tuple_new(_cls, ({names}{',' if len(fields) == 1 else ''}))",
                {"_tuple_new": tuple.__new__, "__builtins__": {}},
            )
            _constructors[len(fields)] = template
        code = template.__code__.replace(
            co_varnames=("_cls", *fields), co_name="__new__", co_qualname=f"{name}.__new__"
        )
        made = FunctionType(code, template.__globals__, "__new__", defaults)
        made.__doc__ = f"Create new instance of {name}({', '.join(fields)})"
        return made

    def _named_tuple(name: str, fields: tuple[str, ...], defaults: tuple[Any, ...], namespace: dict[str, Any]) -> type:
        count = len(fields)

        @classmethod
        def _make(cls: type, iterable: Iterable[Any]) -> Any:
            result = tuple.__new__(cls, iterable)
            if len(result) != count:
                raise TypeError(f"Expected {count} arguments, got {len(result)}")
            return result

        def _replace(self: Any, /, **changes: Any) -> Any:
            result = self._make(map(changes.pop, fields, self))
            if changes:
                raise ValueError(f"Got unexpected field names: {list(changes)!r}")
            return result

        shape = "(" + ", ".join(f"{field}=%r" for field in fields) + ")"

        def __repr__(self: Any) -> str:
            return self.__class__.__name__ + shape % self

        def _asdict(self: Any) -> dict[str, Any]:
            return dict(zip(self._fields, self, strict=True))

        def __getnewargs__(self: Any) -> tuple[Any, ...]:
            return tuple(self)

        for method in (_make.__func__, _replace, __repr__, _asdict, __getnewargs__):
            method.__qualname__ = f"{name}.{method.__name__}"
        body: dict[str, Any] = {
            "__doc__": f"{name}({', '.join(fields)})",
            "__slots__": (),
            "_fields": fields,
            "_field_defaults": dict(zip(fields[count - len(defaults) :], defaults, strict=True)),
            "__new__": _constructor(name, fields, defaults),
            "_make": _make,
            "_replace": _replace,
            "__repr__": __repr__,
            "_asdict": _asdict,
            "__getnewargs__": __getnewargs__,
            "__match_args__": fields,
            "__annotations__": dict(namespace.get("__annotations__", {})),
        }
        if sys.version_info >= (3, 13):  # copy.replace(), as collections.namedtuple gives it there
            body["__replace__"] = _replace
        for index, field in enumerate(fields):
            body[field] = _getter(index, sys.intern(f"Alias for field number {index}"))
        for key, value in namespace.items():
            if key not in _KEPT and key not in fields:
                body[key] = value
        made = type(name, (tuple,), body)
        made.__module__ = namespace["__module__"]
        made.__qualname__ = namespace.get("__qualname__", name)
        return made

    class _NamedTupleType(type):
        def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> type:
            if not bases:  # the NamedTuple base below
                return super().__new__(mcs, name, bases, namespace)
            if bases != (NamedTuple,):
                raise TypeError(f"{name}: a NamedTuple has no other base")
            fields = tuple(namespace.get("__annotations__", {}))
            if any(field.startswith("_") for field in fields):
                raise ValueError(f"{name}: field names cannot start with an underscore")
            defaults = tuple(namespace[field] for field in fields if field in namespace)
            if any(field not in namespace for field in fields[len(fields) - len(defaults) :]):
                raise TypeError(f"{name}: a field without a default follows one with a default")
            return _named_tuple(name, fields, defaults, namespace)

    class NamedTuple(metaclass=_NamedTupleType):
        pass
