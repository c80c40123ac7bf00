"""Python client for the toolcalc API (docs/clients.md).

    from toolcalc import Client, ToolcalcError

    client = Client("http://127.0.0.1:8080/api", key="tc_live_…")
    r = client.run("voltage-divider", vin_v=5, r1_ohm=1000, r2_ohm=1940)
    r["vout_v"]        # Decimal('3.2993'): exactly the text the server wrote

Standard library only. Numbers with a fraction or exponent are `decimal.Decimal`, integers
`int`, so nothing the server rounded is rounded again.
"""
from ._client import Client, Result, __version__
from ._errors import ToolcalcError

__all__ = ["Client", "Result", "ToolcalcError", "__version__"]
