"""Screens rendered to images, and the back-ends that show them (an SPI LCD, a capture, the simulator window)."""
