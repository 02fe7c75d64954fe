"""Hardware adapters: buttons, player pads, LEDs and buzzer, behind small interfaces.

Adapters only turn hardware activity into :class:`~hardware.events.InputEvent` values on one queue; the game thread
is the only place anything happens. Each adapter is built on the real library (gpiozero, pyserial) and tested with
that library's own test double (gpiozero's ``MockFactory``, pyserial's ``loop://`` and pseudo-terminals).
"""
