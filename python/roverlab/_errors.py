"""The error a refused scenario or study raises (kept apart so the extension can raise it)."""


class ScenarioError(ValueError):
    """A scenario or study the core refused.

    ``issues`` is the list of ``{"path": ..., "message": ...}`` the command-line
    tool prints for the same document, e.g.
    ``{"path": "robot.params.wheel_radius", "message": "must be in [0.02, 2] m"}``;
    ``str()`` gives one ``path: message`` line per issue.
    """

    def __init__(self, issues):
        self.issues = [{"path": i["path"], "message": i["message"]} for i in issues]
        super().__init__(self.issues)

    def __str__(self):
        return "\n".join(f"{i['path'] or '(document)'}: {i['message']}" for i in self.issues)
