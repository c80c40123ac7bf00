"""The one exception the client raises."""

__all__ = ["ToolcalcError"]


class ToolcalcError(Exception):
    """A call that did not succeed.

    Attributes:
      status       HTTP status (400, 401, 404, 422, 429, 503, ...), or None when no response
                   arrived (codes TIMEOUT and CONNECTION_ERROR).
      code         The API's `error.code` (VALIDATION_ERROR, RATE_LIMITED, ...; see
                   docs/api.md), or one of the client's own: TIMEOUT, CONNECTION_ERROR,
                   INVALID_RESPONSE (a body that is not the API's JSON envelope).
      message      The API's `error.message` (it names the bound or the reason).
      field        The input or query parameter at fault, when one is (`error.field`).
      request_id   `meta.request_id` (= X-Request-ID): quote it to support.
      retry_after  Seconds from the Retry-After header (429 and 503), else None.
      body         The parsed error body, when there was one.
    """

    def __init__(self, status, code, message, *, field=None, request_id=None, retry_after=None,
                 body=None):
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.request_id = request_id
        self.retry_after = retry_after
        self.body = body
        super().__init__(str(self))

    def __str__(self):
        head = f"{self.status} {self.code}" if self.status is not None else self.code
        text = f"{head}: {self.message}"
        if self.field:
            text += f" (field {self.field})"
        if self.request_id:
            text += f" [{self.request_id}]"
        return text

    def __repr__(self):
        return (f"ToolcalcError(status={self.status!r}, code={self.code!r}, "
                f"field={self.field!r}, request_id={self.request_id!r})")
