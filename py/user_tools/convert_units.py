"""Unit conversion: models are unreliable at arithmetic, this is exact."""

from tabagent import tool

# Each unit in its dimension's base unit (metre, kilogram, litre, second, metre per second,
# byte). US customary volumes; "kb" and "kib" are 1000 and 1024 bytes.
FACTORS = {
    "length": {"mm": 0.001, "cm": 0.01, "m": 1, "km": 1000, "in": 0.0254, "ft": 0.3048,
               "yd": 0.9144, "mi": 1609.344, "nmi": 1852},
    "mass": {"mg": 1e-6, "g": 0.001, "kg": 1, "t": 1000, "oz": 0.028349523125,
             "lb": 0.45359237, "st": 6.35029318},
    "volume": {"ml": 0.001, "l": 1, "tsp": 0.00492892159375, "tbsp": 0.01478676478125,
               "fl_oz": 0.0295735295625, "cup": 0.2365882365, "pt": 0.473176473,
               "qt": 0.946352946, "gal": 3.785411784},
    "time": {"ms": 0.001, "s": 1, "min": 60, "h": 3600, "day": 86400, "week": 604800},
    "speed": {"m/s": 1, "km/h": 1 / 3.6, "mph": 0.44704, "kn": 1852 / 3600},
    "data": {"b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
             "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40},
}
ALIASES = {"meter": "m", "metre": "m", "kilometer": "km", "kilometre": "km", "inch": "in",
           "foot": "ft", "feet": "ft", "yard": "yd", "mile": "mi", "gram": "g", "kilogram": "kg",
           "tonne": "t", "ounce": "oz", "pound": "lb", "lbs": "lb", "stone": "st", "liter": "l",
           "litre": "l", "milliliter": "ml", "millilitre": "ml", "gallon": "gal", "pint": "pt",
           "quart": "qt", "second": "s", "sec": "s", "minute": "min", "hour": "h", "hr": "h",
           "days": "day", "weeks": "week", "knot": "kn", "kph": "km/h", "byte": "b",
           "celsius": "c", "fahrenheit": "f", "kelvin": "k", "°c": "c", "°f": "f"}
# Temperatures are not proportional: each is converted through kelvin.
TO_KELVIN = {"c": lambda v: v + 273.15, "f": lambda v: (v - 32) * 5 / 9 + 273.15, "k": lambda v: v}
FROM_KELVIN = {"c": lambda k: k - 273.15, "f": lambda k: (k - 273.15) * 9 / 5 + 32, "k": lambda k: k}


def _unit(name: str) -> tuple[str, str]:
    """(dimension, unit) for a unit name, forgiving case, plurals and spelled-out names."""
    key = name.strip().lower().replace(" ", "_")
    for candidate in (key, key.rstrip("s"), key[:-2] if key.endswith("es") else key):
        candidate = ALIASES.get(candidate, candidate)
        if candidate in TO_KELVIN:
            return "temperature", candidate
        for dimension, units in FACTORS.items():
            if candidate in units:
                return dimension, candidate
    known = ", ".join([*(u for units in FACTORS.values() for u in units), "c", "f", "k"])
    raise ValueError(f"unknown unit {name!r}; known units: {known}")


@tool
def convert_units(value: float, from_unit: str, to_unit: str) -> float:
    """Converts a quantity from one unit to another: length, mass, volume (US), time, speed,
    data size (kb = 1000 bytes, kib = 1024) and temperature (c, f, k).

    Args:
        value: the quantity to convert.
        from_unit: its unit, e.g. "mi", "lb", "cup", "km/h", "gib", "f" (names like "miles" work too).
        to_unit: the unit wanted, of the same kind.
    """
    (source_kind, source), (target_kind, target) = _unit(from_unit), _unit(to_unit)
    if source_kind != target_kind:
        raise ValueError(f"cannot convert {source_kind} ({from_unit}) to {target_kind} ({to_unit})")
    if source_kind == "temperature":
        result = FROM_KELVIN[target](TO_KELVIN[source](value))
    else:
        result = value * FACTORS[source_kind][source] / FACTORS[source_kind][target]
    return float(f"{result:.10g}")  # 26.2 mi is 42.1648128 km, not 42.164812800000004


# An example: listed to the model only once it asks for more tools (more_tools), so that it
# costs no tokens in every request. Delete this line to have it listed always.
convert_units.example = True
