"""Controllers in Python: the observation view and the loop that runs a controller (docs/controllers.md).

A controller is any object (an instance, a class, a module) with

- ``period``: seconds of simulated time between updates (default 0.01),
- ``init(model)`` (optional): called once, before the first update,
- ``update(obs)``: called at t = 0 and every ``period`` after, before the step
  that starts then; it returns a dict in the vocabulary of the JavaScript
  programs: ``wheel_speed``, ``left_speed``, ``right_speed`` (rad/s),
  ``joints`` {name: target}, ``actuators`` {name: value}, ``plot`` {name: value}.

``obs`` is an :class:`Observation`: a read-only nested view over one NumPy row
of the core's observation, refilled in place at each update (so reading it
costs an index, and nothing is built per update). ``obs.base.pitch_rad`` and
``obs["base"]["pitch_rad"]`` read the same value; ``obs.array`` is the row,
``obs.columns`` its column names (``"wheels.wheel_1.touches.0.nz"``).
"""

import json
import math
import numbers
from collections.abc import Mapping

import numpy as np

#: The period of a controller that does not say (s): 100 Hz.
DEFAULT_PERIOD = 0.01
#: The command columns before the actuators' ("actuators.NAME").
SPEED_COLUMNS = ("wheel_speed", "left_speed", "right_speed")
_NAN = math.nan
_GROUPS = ("sections", "joints", "wheels", "boxes")


class _Node:
    """A read-only mapping over some columns of the observation row (one class per node)."""

    __slots__ = ()
    _path = "obs"
    _keys = ()
    _getters = {}

    def __getitem__(self, key):
        try:
            get = self._getters[key]
        except (KeyError, TypeError):
            raise KeyError(f"{self._path} has no {key!r}; it has {', '.join(self._keys) or 'nothing'}") from None
        return get(self)

    def __setattr__(self, name, value):
        raise AttributeError(f"{self._path} is read-only: it is a view of the observation")

    __delattr__ = __setattr__

    def __iter__(self):
        return iter(self._keys)

    def __len__(self):
        return len(self._keys)

    def __contains__(self, key):
        try:
            return key in self._getters
        except TypeError:
            return False

    def keys(self):
        return list(self._keys)

    def values(self):
        return [self[k] for k in self._keys]

    def items(self):
        return [(k, self[k]) for k in self._keys]

    def get(self, key, default=None):
        return self[key] if key in self else default

    def to_dict(self):
        """A plain nested copy (dicts, lists of touches, floats): to keep or print."""
        return {k: _plain(self[k]) for k in self._keys}

    def __eq__(self, other):
        if isinstance(other, (_Node, Mapping)):
            return _plain(self) == _plain(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self):
        return f"<{self._path} {self.to_dict()!r}>"


Mapping.register(_Node)


def _plain(value):
    if isinstance(value, _Node):
        return value.to_dict()
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _leaf(item, index):
    return property(lambda self: item(index))


def _node(path, entries, item, row_columns, base=_Node, extra=None):
    """A node object for `entries` ({name: index or sub-dict}) at `path`.

    Each node is the one instance of a class of its own (named by its path, so
    that a misspelt field reads "'obs.base' object has no attribute ..."),
    whose fields are class attributes: a child node itself, a leaf a property
    reading the row.
    """
    namespace = {"__slots__": (), "_path": path, "_keys": tuple(entries), **(extra or {})}
    getters = {}
    for name, entry in entries.items():
        if isinstance(entry, int):
            prop = _leaf(item, entry)
            getters[name] = prop.fget
        elif name == "touches" and path.startswith("obs.wheels.") and path.count(".") == 2:
            # A wheel's touches: as many as its contacts (at most the row carries).
            touches = tuple(_node(f"{path}.touches[{k}]", entry[k], item, row_columns)
                            for k in sorted(entry, key=int))
            contacts = row_columns[f"{path[len('obs.'):]}.contacts"]

            def present(self, _touches=touches, _contacts=contacts):
                return _touches[:int(item(_contacts))]

            prop = property(present)
            getters[name] = present
        else:
            child = _node(f"{path}.{name}", entry, item, row_columns)
            prop = child
            getters[name] = lambda self, _child=child: _child
        if name.isidentifier() and not name.startswith("_"):
            namespace[name] = prop
    namespace["_getters"] = getters
    return type(path, (base,), namespace)()


class Observation(_Node):
    """The observation as a read-only nested view over one NumPy row (docs/controllers.md).

    ``obs.time_s``, ``obs.base.pitch_rad``, ``obs["wheels"]["wheel_1"]["slip"]``,
    ``obs.wheels.wheel_1.touches`` (a tuple of the present contacts, each with
    ``x_m``, ``y_m``, ``z_m``, ``nx``, ``ny``, ``nz``, ``normal_N``). ``sections``,
    ``joints``, ``wheels`` and ``boxes`` are there even when empty. Values are
    floats read from ``array`` when accessed: the view follows the row, which
    the World refills in place at each update; ``to_dict()`` or
    ``array.copy()`` keep one. ``array`` is the row itself (read-only),
    ``columns`` its column names.
    """

    __slots__ = ()


def observation_view(columns, row):
    """An :class:`Observation` over `row` (a float64 NumPy array, one value per column)."""
    tree = {}
    for index, column in enumerate(columns):
        parts = column.split(".")
        node = tree
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = index
    # The groups always there (empty when the robot has none), in the columns' order.
    tree = {**{k: tree[k] for k in ("time_s", "base") if k in tree},
            **{group: tree.get(group, {}) for group in _GROUPS}, **tree}
    readonly = row.view()
    readonly.flags.writeable = False
    return _node("obs", tree, row.item, {c: i for i, c in enumerate(columns)}, base=Observation,
                 extra={"array": readonly, "columns": tuple(columns), "__doc__": Observation.__doc__})


def controller_model(model, observation_columns, command_columns, period):
    """What ``init(model)`` receives: the robot's names and limits, the columns of obs and commands."""
    return {
        "robot": model["robot"],
        "dt_s": model["dt"],
        "duration_s": model["duration"],
        "period_s": period,
        "max_wheel_speed_rad_s": model["maxWheelSpeed"],
        "joints": [{"name": j["name"], "prismatic": j["prismatic"], "lower": j.get("lower"),
                    "upper": j.get("upper")} for j in model["joints"]],
        "wheels": [{"name": w["name"], "radius_m": w["radius"], "width_m": w["width"]}
                   for w in model["wheels"]],
        "actuators": [c[len("actuators."):] for c in command_columns if c.startswith("actuators.")],
        "observation": list(observation_columns),
        "command": list(command_columns),
        "params": dict(model.get("programParams") or {}),
    }


def actuator_bounds(model, names):
    """(low, high) arrays of each named actuator's target, as the core clamps it.

    A drive wheel's speed: ±max_wheel_speed (rad/s); a position target: its
    joint's range (rad or m); a torque: ±the actuator's limit (N·m or N);
    anything the core does not clamp: ±inf.
    """
    description = model.get("robotDescription") or {}
    actuators = {a.get("name"): a for a in description.get("actuators", [])}
    controls = description.get("controls", {})
    drives = set(controls.get("left", [])) | set(controls.get("right", []))
    joint_ranges = {j["name"]: (j.get("lower"), j.get("upper")) for j in model.get("joints", [])}
    urdf_limits = {j.get("name"): j.get("limit") or {} for j in description.get("joints", [])}
    limit = model["maxWheelSpeed"]
    low = np.full(len(names), -np.inf)
    high = np.full(len(names), np.inf)
    for k, name in enumerate(names):
        a = actuators.get(name, {})
        mode = a.get("mode")
        if mode == "speed" and name in drives:
            low[k], high[k] = -limit, limit
        elif mode == "position":
            lo, hi = joint_ranges.get(name, (None, None))
            if lo is None or hi is None:
                joint = urdf_limits.get(a.get("joint"), {})
                lo, hi = joint.get("lower"), joint.get("upper")
            if lo is not None and hi is not None:
                low[k], high[k] = lo, hi
        elif mode == "torque" and a.get("limit") is not None:
            low[k], high[k] = -a["limit"], a["limit"]
    return low, high


def _describe(value):
    if isinstance(value, str):
        return repr(value[:40])
    if value is None:
        return "None"
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        return repr(value)
    return type(value).__name__


def _fmt(t):
    return f"{round(t, 4):g}"


class ControllerRun:
    """A controller in a core World's loop (used by roverlab.World)."""

    def __init__(self, core, controller, model):
        self.core = core
        self.controller = controller
        self.warnings = []
        self._warned = set()
        self.updates = 0
        self.error = ""
        self._plots = {}
        period = getattr(controller, "period", DEFAULT_PERIOD)
        update = getattr(controller, "update", None)
        init = getattr(controller, "init", None)
        if not callable(update):
            raise TypeError(f"the controller ({_describe(controller)}) has no update(obs) method: "
                            "give an object with period, init(model) (optional) and update(obs)")
        if init is not None and not callable(init):
            raise TypeError(f"the controller's init must be a method (or left out), got {_describe(init)}")
        dt, duration = model["dt"], model["duration"]
        if (isinstance(period, bool) or not isinstance(period, numbers.Real)
                or not dt <= period <= max(duration, dt)):
            raise ValueError(f"the controller's period must be a number of seconds in [{dt:g}, "
                             f"{max(duration, dt):g}] (the step and the run's duration), "
                             f"got {_describe(period)}")
        self.period = float(period)
        if not core.attach_program(self.period):
            raise ValueError("the scenario also names a controller (control.controller): a run has one; "
                             'set it to "none" (sets=["control.controller=none"])')
        self._update = update
        observation_columns = list(core.observation_columns)
        command_columns = list(core.command_columns)
        self.row = np.zeros(len(observation_columns))
        self.obs = observation_view(observation_columns, self.row)
        self.command_row = np.full(len(command_columns), _NAN)
        self._speeds = {c: command_columns.index(c) for c in SPEED_COLUMNS}
        self._actuators = {c[len("actuators."):]: i for i, c in enumerate(command_columns)
                           if c.startswith("actuators.")}
        self._joints = {j["name"] for j in model["joints"]}
        if init is not None:
            try:
                init(controller_model(model, observation_columns, command_columns, self.period))
            except Exception as e:
                _note(e, "roverlab: raised by the controller's init, before t = 0 s")
                raise

    def warn(self, key, message):
        if key in self._warned:
            return
        self._warned.add(key)
        self.warnings.append({"t": self.core.time, "message": message})

    def update(self):
        """One update: the observation in, the controller's command out to the World."""
        core = self.core
        core.observation(self.row)
        try:
            command = self._update(self.obs)
        except Exception as e:
            t = core.time
            self.error = f"update at t = {_fmt(t)} s: {type(e).__name__}: {e}"
            _note(e, f"roverlab: raised by the controller's update at t = {_fmt(t)} s; "
                     "the World stopped there (outcome 'program_error')")
            raise
        self.updates += 1
        row = self.command_row
        row.fill(_NAN)
        if command is not None:
            if isinstance(command, (dict, Mapping)):
                self._fill(command)
            else:
                self.warn("type", f"update returned {_describe(command)}, not a dict; nothing commanded")
        if core.command(row) > 0:
            self.warn("clamped", f"update commanded values beyond the robot's limits (first at t = "
                                 f"{_fmt(core.time)} s): they were clamped (an infinite one ignored)")

    def _number(self, key, name, value):
        if type(value) is float:
            if value == value:
                return value
        elif isinstance(value, (numbers.Real, np.number)) and not isinstance(value, (bool, np.bool_)):
            try:
                v = float(value)
            except OverflowError:
                v = math.inf if value > 0 else -math.inf
            if v == v:
                return v
        path = key if name is None else f"{key}.{name}"
        self.warn(("bad", path), f"update returned {path} = {_describe(value)}, not a number; ignored")
        return _NAN

    def _fill(self, command):
        row = self.command_row
        for key, value in command.items():
            speed = self._speeds.get(key)
            if speed is not None:
                row[speed] = self._number(key, None, value)
            elif key == "joints" or key == "actuators":
                if not isinstance(value, (dict, Mapping)):
                    self.warn(("bad", key), f"update returned {key} = {_describe(value)}, "
                                            "not a dict of targets by name; ignored")
                    continue
                for name, target in value.items():
                    index = self._actuators.get(name)
                    if index is None or (key == "joints" and name not in self._joints):
                        what = "joint drive" if key == "joints" else "actuator"
                        self.warn(("name", key, str(name)), f"update returned {key}.{name}, but the "
                                                            f"robot has no such {what}; ignored")
                    else:
                        row[index] = self._number(key, name, target)
            elif key == "plot":
                if isinstance(value, (dict, Mapping)):
                    t = self.core.time
                    for name, v in value.items():
                        if isinstance(v, (numbers.Real, np.number)) and not isinstance(v, bool):
                            self._plots.setdefault(str(name), []).append((t, float(v)))
            else:
                self.warn(("key", str(key)), f"update returned {key}, which is not a command "
                                             "(wheel_speed, left_speed, right_speed, joints, "
                                             "actuators, plot); ignored")

    def step(self, n):
        """Up to n steps, updating the controller whenever it is due; False once the run stopped."""
        if n < 0:
            raise ValueError("step: n must be ≥ 0")
        core = self.core
        if self.error:
            return False
        taken = 0
        while taken < n:
            if core.program_due():
                self.update()
            before = core.steps
            if not core.step(n - taken):
                return False
            k = core.steps - before
            taken += k
            if k == 0 and not core.program_due():
                break
        return core.outcome == "ok"

    def plots(self):
        return {name: (np.array([p[0] for p in points]), np.array([p[1] for p in points]))
                for name, points in self._plots.items()}


def controller_factory(controller):
    """``controller`` if it makes controllers (a class, a function): a study's rows each run their own."""
    instance = callable(getattr(controller, "update", None)) and not isinstance(controller, type)
    if not callable(controller) or instance:
        raise TypeError(f"controller: give what makes one (a class, or a function returning an object with "
                        f"update(obs)): each row of a study runs its own, got {_describe(controller)}")
    return controller


def run_controller_row(row, make):
    """Runs one of a study's rows (the core's StudyRow) with the controller ``make()`` builds.

    Its ``init(model)`` gets ``model["params"]``: the scenario's control.program.params, which
    the study's parameters may set. A controller that raises stops its row only: the row is not
    ok, its outcome ``"program_error"`` and its message the error. Returns the row (JSON text).
    """
    if row.running and row.program_language == "javascript":
        row.fail_program("the scenario carries a javascript program; a Python study runs the "
                         "controller it is given (node tools/roverlab.mjs study runs the program)")
    elif row.running:
        run = None
        try:
            run = ControllerRun(row, make(), json.loads(row.model()))
            while row.running:
                run.step(1 << 20)
        except Exception as e:  # noqa: BLE001 (the row says what the controller raised)
            if run is not None and run.error:
                row.fail_program(run.error)
            else:
                row.fail_program(f"{'init' if run is None else 'update'}: {type(e).__name__}: {e}")
    return row.finish()


def _note(error, text):
    add = getattr(error, "add_note", None)  # Python 3.11
    if add is not None:
        add(text)
