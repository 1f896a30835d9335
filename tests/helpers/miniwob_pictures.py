"""Screenshots judged as a vision model would, for the MiniWoB++ policies: by their pixels only
(which colour is where, what shape a figure has). Coordinates are the picture's own."""

from __future__ import annotations

import colorsys

from PIL import Image

from .tool_model import GaveUp

NAMED = {"red": (255, 0, 0), "green": (0, 128, 0), "blue": (0, 0, 255), "yellow": (255, 255, 0),
         "black": (0, 0, 0), "white": (255, 255, 255), "purple": (128, 0, 128), "orange": (255, 165, 0),
         "pink": (255, 192, 203), "grey": (128, 128, 128), "gray": (128, 128, 128), "cyan": (0, 255, 255),
         "magenta": (255, 0, 255), "brown": (165, 42, 42), "lime": (0, 255, 0), "navy": (0, 0, 128),
         "maroon": (128, 0, 0), "olive": (128, 128, 0), "teal": (0, 128, 128), "aqua": (0, 255, 255),
         "silver": (192, 192, 192), "fuchsia": (255, 0, 255)}


def _close(a, b, slack=24) -> bool:
    return all(abs(x - y) <= slack for x, y in zip(a, b))


def _run(picture, x, y, dx, dy, same) -> int:
    """How far from (x, y) the pixels stay `same`, stepping by (dx, dy)."""
    n = 0
    while 0 <= x + dx * (n + 1) < picture.width and 0 <= y + dy * (n + 1) < picture.height \
            and same(picture.getpixel((x + dx * (n + 1), y + dy * (n + 1)))):
        n += 1
    return n


def blocks(picture: Image.Image, same, smallest: int, largest: int) -> list[tuple[int, int]]:
    """Centres of the solid blocks whose pixels are `same`, between smallest and largest wide."""
    found: list[tuple[int, int, int, int]] = []  # left, top, right, bottom
    for y in range(0, picture.height, 3):
        for x in range(0, picture.width, 3):
            if any(left <= x <= right and top <= y <= bottom for left, top, right, bottom in found):
                continue
            if not same(picture.getpixel((x, y))):
                continue
            left, right = x - _run(picture, x, y, -1, 0, same), x + _run(picture, x, y, 1, 0, same)
            top, bottom = y - _run(picture, x, y, 0, -1, same), y + _run(picture, x, y, 0, 1, same)
            if smallest <= right - left + 1 <= largest and smallest <= bottom - top + 1 <= largest:
                found.append((left, top, right, bottom))
    return [((left + right) // 2, (top + bottom) // 2) for left, top, right, bottom in found]


def colour_cells(picture: Image.Image, colour: str) -> list[tuple[int, int]]:
    """Centres of the boxes (30 to 150 pixels wide) of a named colour."""
    wanted = NAMED.get(colour)
    if wanted is None:
        raise GaveUp(f"a colour a person would not name so: {colour}")
    return blocks(picture, lambda pixel: _close(pixel, wanted), 30, 150)


def hue_name(pixel) -> str:
    """red, green or blue: the hue a person would call it."""
    hue = colorsys.rgb_to_hsv(*(c / 255 for c in pixel))[0] * 360
    return "green" if 60 <= hue < 180 else "blue" if 180 <= hue < 300 else "red"


def shades(picture: Image.Image, colour: str) -> list[tuple[int, int]]:
    """Centres of the small coloured squares (8 to 40 pixels) of a hue."""
    coloured = lambda pixel: max(pixel) - min(pixel) > 30  # noqa: E731
    return [(x, y) for x, y in blocks(picture, coloured, 8, 40) if hue_name(picture.getpixel((x, y))) == colour]


def classify_shape(picture: Image.Image) -> str:
    """Rectangle, Circle or Triangle from how much of its box the figure fills; text otherwise."""
    ink = [(x, y) for y in range(picture.height) for x in range(picture.width)
           if sum(picture.getpixel((x, y))) < 600]
    if not ink:
        raise GaveUp("the figure's picture is blank")
    xs, ys = [x for x, _ in ink], [y for _, y in ink]
    box = (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1)
    fill = len(ink) / box
    if fill > 0.93:
        return "Rectangle"
    if fill > 0.7:
        return "Circle"
    if fill > 0.42:
        return "Triangle"
    raise GaveUp("the figure is drawn text: which letter or digit needs reading the picture")
