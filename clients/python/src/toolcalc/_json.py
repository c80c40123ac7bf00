"""JSON that keeps numbers exact in both directions.

Reading: every JSON number with a fraction or an exponent becomes a `decimal.Decimal` of
exactly the text the server wrote (`343.3` → `Decimal('343.3')`, `0.50` → `Decimal('0.50')`);
integers stay `int`. A float would turn `0.1` into 0.1000000000000000055… and print numbers
the server never wrote.

Writing: `Decimal` values are sent as their text, `float` values in Python's shortest form
that reads back as the same float (`repr`), `int` as is. NaN and infinities are refused:
JSON has no such numbers.
"""
import decimal
import json
import math

__all__ = ["loads", "dumps"]


def loads(text):
    return json.loads(text, parse_float=decimal.Decimal)


def _number_text(value):
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise ValueError(f"{value} is not a JSON number")
        # str() gives JSON's grammar: 12.5, -0.001, 1E+3 (never 'Infinity' for finite values).
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} is not a JSON number")
        return repr(value)
    return str(int(value))


def dumps(value):
    """Compact JSON text of `value` (dicts, lists, tuples, strings, numbers, booleans, None)."""
    parts = []
    _write(value, parts)
    return "".join(parts)


def _write(value, out):
    if value is None or value is True or value is False or isinstance(value, str):
        out.append(json.dumps(value, ensure_ascii=False))
    elif isinstance(value, (int, float, decimal.Decimal)):
        out.append(_number_text(value))
    elif isinstance(value, dict):
        out.append("{")
        for i, (k, v) in enumerate(value.items()):
            if not isinstance(k, str):
                raise TypeError(f"JSON object keys must be strings, not {type(k).__name__}")
            if i:
                out.append(",")
            out.append(json.dumps(k, ensure_ascii=False))
            out.append(":")
            _write(v, out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, v in enumerate(value):
            if i:
                out.append(",")
            _write(v, out)
        out.append("]")
    else:
        raise TypeError(f"cannot send a {type(value).__name__} as JSON")
