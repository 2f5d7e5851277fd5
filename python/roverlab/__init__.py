"""Roverlab from Python: run scenarios, step a world, run studies (docs/python.md).

The same C++ core as the ``roverlab`` command-line tool and the browser app, so
a scenario run here ends in the same state (the same ``state_hash``) as
``roverlab run`` of the same file with the same ``--set`` assignments.

A scenario or study is given as a dict, as JSON text (a string starting with
``{``) or as the path of a JSON file. Files a scenario names (heightmaps,
meshes, robots) are read from the file's folder, or for a dict or text from
``folder`` (the current directory by default), and never from outside it.
Units are SI throughout: m, s, rad, N, N·m, J.

    >>> import roverlab
    >>> summary = roverlab.run("terrains/flat-rocker8.json", sets=["simulation.duration=1"])
    >>> summary["base"]["position_m"], summary["state_hash"]

Refusals raise :class:`ScenarioError` with the ``{path, message}`` issues.
A controller written in Python runs in a World's loop (``World(scenario,
controller=obj)``), and :class:`Env` is the same loop shaped as a Gymnasium
environment (docs/controllers.md, docs/python.md).
"""

import json
import os

from . import _core
from ._errors import ScenarioError
from .control import ControllerRun, Observation, controller_factory, run_controller_row

__all__ = ["ScenarioError", "SAMPLE_INTERVAL", "run", "World", "Env", "Observation", "Study",
           "csv_field"]
__version__ = "0.1.0"

#: Simulated time between the samples of run statistics and telemetry rows (s).
SAMPLE_INTERVAL = _core.SAMPLE_INTERVAL


def _document(source, folder):
    """(JSON text, folder ending in '/') of a scenario or study given as a dict, text or path."""
    if isinstance(source, dict):
        text = json.dumps(source, allow_nan=False)
    elif isinstance(source, str) and source.lstrip().startswith("{"):
        text = source
    elif isinstance(source, (str, os.PathLike)):
        if folder is not None:
            raise ValueError("folder goes with a document given as a dict or text; "
                             "a file's names are read from its own folder")
        path = os.fspath(source)
        return _core.read_document(path), _folder(os.path.dirname(path))
    else:
        raise TypeError(f"expected a dict, JSON text or a path, got {type(source).__name__}")
    return text, _folder(folder)


def _folder(folder):
    return os.path.join(os.path.abspath(os.fspath(folder) if folder else "."), "")


def _sets(sets):
    if sets is None:
        return []
    if isinstance(sets, str):
        raise TypeError('sets is a list of "PATH=VALUE" strings, e.g. ["simulation.duration=2"]')
    return [str(s) for s in sets]


def run(scenario, folder=None, sets=None):
    """Runs a scenario to its ``simulation.duration`` and returns its summary.

    ``sets`` is a list of ``"PATH=VALUE"`` assignments applied to the document
    first, as ``roverlab run --set`` does (``"simulation.duration=2"``,
    ``"robot.params.wheel_radius=0.3"``). The summary is the dict
    ``roverlab run`` prints (docs/cli.md): ``ok``, ``outcome`` (``"ok"``,
    ``"blew_up"``, ``"left_terrain"``) and ``error``, ``time_s``, ``base``
    (``position_m``, ``yaw_rad``, ``pitch_rad``, ``roll_rad``), ``wheels``,
    ``max_abs_pitch_rad``, ``flipped``, ``steps``, ``state_hash``, ``wall_s``,
    ... A run that stopped is a summary with ``ok`` false, not an exception.

    Raises ScenarioError when the document, an assignment or the robot's
    placement is refused. The GIL is released while it runs.
    """
    text, folder = _document(scenario, folder)
    return json.loads(_core.run(text, folder, _sets(sets)))


class World:
    """A scenario stepped from Python, with its inputs and state.

    ``World(scenario, folder=None, sets=None)`` takes the same arguments as
    :func:`run` and raises ScenarioError on the same refusals. It does not stop
    at ``simulation.duration`` (``duration`` gives it); it stops only when the
    run blows up or leaves the terrain. Every ``SAMPLE_INTERVAL`` (0.01 s) of
    simulated time it keeps a telemetry row and samples the run statistics, as
    ``roverlab run`` does, so ``summary()`` after ``round(duration / dt)``
    steps equals ``run()``'s summary (same ``state_hash``). Use one World from
    one thread at a time; the GIL is released while it steps.

    ``controller``: an object with ``period`` (s, default 0.01), an optional
    ``init(model)`` and ``update(obs)`` returning a dict command
    (docs/controllers.md). ``step()`` then calls ``update`` at t = 0 and
    every ``period`` after, before the step that starts then; what it
    commands out of bounds or misnamed is clamped or ignored with one
    warning per kind in ``warnings``. An exception raised by the controller
    propagates from ``step()`` (or from the constructor, for ``init``) with
    its traceback, and the World stops there: ``outcome`` becomes
    ``"program_error"`` and later ``step()`` calls take no step.
    """

    def __init__(self, scenario, folder=None, sets=None, controller=None):
        text, folder = _document(scenario, folder)
        self._world = _core.World(text, folder, _sets(sets))
        self._run = None
        if controller is not None:
            self._run = ControllerRun(self._world, controller, self.model())

    def step(self, n=1):
        """Takes up to ``n`` steps of ``dt``; False once the run has stopped (see ``outcome``).

        With a controller, its update runs whenever it is due within them.
        """
        if self._run is None:
            return self._world.step(int(n))
        return self._run.step(int(n))

    @property
    def time(self):
        """Simulated time (s)."""
        return self._world.time

    @property
    def dt(self):
        """The fixed step (s)."""
        return self._world.dt

    @property
    def duration(self):
        """The scenario's ``simulation.duration`` (s); the World does not stop there."""
        return self._world.duration

    @property
    def steps(self):
        """Steps taken so far."""
        return self._world.steps

    @property
    def outcome(self):
        """``"ok"`` while running, ``"blew_up"``, ``"left_terrain"`` or ``"program_error"`` once stopped."""
        outcome = self._world.outcome
        if outcome == "ok" and self._run is not None and self._run.error:
            return "program_error"
        return outcome

    @property
    def error(self):
        """Why the run stopped ("" while it runs)."""
        if self._world.outcome == "ok" and self._run is not None and self._run.error:
            return self._run.error
        return self._world.error

    @property
    def controller(self):
        """The controller given to the constructor (None without one)."""
        return None if self._run is None else self._run.controller

    @property
    def warnings(self):
        """The controller's warnings, one per kind: ``[{"t": s, "message": ...}]`` ([] without one)."""
        return [] if self._run is None else [dict(w) for w in self._run.warnings]

    def plots(self):
        """What the controller plotted: ``{name: (times_s, values)}``, NumPy arrays ({} without one)."""
        return {} if self._run is None else self._run.plots()

    @property
    def state(self):
        """The state the next step starts from, as copies (NumPy float64 arrays).

        ``q``: joint positions, the base first (a free base: position (m) and
        unit quaternion w, x, y, z; a planar base: x, z (m), pitch (rad)),
        then each joint (rad or m). ``v``: joint velocities (a free base:
        body-frame angular velocity (rad/s), then the velocity of its origin
        (m/s); then rad/s or m/s per joint). ``targets``: each actuator's
        target (a wheel's speed in rad/s, a joint's position in rad or m).
        """
        q, v, targets = self._world.state()
        return {"q": q, "v": v, "targets": targets}

    @property
    def state_hash(self):
        """The state's fingerprint (16 hex digits): equal hashes, bit-identical states."""
        return self._world.state_hash

    @property
    def columns(self):
        """The telemetry columns, with units in their names (``time_s``, ``base_x_m``, ...)."""
        return list(self._world.columns)

    def telemetry(self):
        """``(columns, rows)``: every row kept since the start, a NumPy array (rows × columns).

        The first row is the start (t = 0), then one row every
        ``SAMPLE_INTERVAL`` (0.01 s) of simulated time, the same values
        ``roverlab run --csv`` writes at its default rate of 100 rows per second.
        Each call copies them all; memory grows by 8 bytes × columns per row.
        """
        return self.columns, self._world.telemetry()

    def set_wheel_speeds(self, left, right):
        """Wheel speed commands per side (rad/s), clamped to the robot's limit.

        False, and nothing changed, unless both are finite. The scenario's
        controller, if it has one, may overwrite them; ``set_controller(False)``
        hands control to you.
        """
        return self._world.set_wheel_speeds(float(left), float(right))

    def set_joint_target(self, name, value):
        """Target of a joint drive (rad or m); False for an unknown name or a non-finite value."""
        return self._world.set_joint_target(str(name), float(value))

    def set_controller(self, on):
        """Turns the scenario's controller on or off; False when it has none."""
        return self._world.set_controller(bool(on))

    def summary(self):
        """The summary ``roverlab run`` would print had the run ended now (see :func:`run`).

        With a controller, ``program``: ``{"period_s", "updates", "warnings"}``
        (how many; the ``warnings`` property lists them), and after it raised,
        ``ok`` false, ``outcome`` ``"program_error"`` and the message in ``error``.
        """
        summary = json.loads(self._world.summary())
        if self._run is not None:
            summary["program"] = {"period_s": self._run.period, "updates": self._run.updates,
                                  "warnings": len(self._run.warnings)}
            if summary.get("outcome") == "ok" and self._run.error:
                summary.update(ok=False, outcome="program_error", error=self._run.error)
        return summary

    def model(self):
        """The robot: bodies, wheels, joint drives (names, limits), telemetry columns, dt, ..."""
        return json.loads(self._world.model())


class Study:
    """A study (docs/study-format.md): one scenario, parameters, predicates, maybe a threshold.

    ``Study(document, folder=None)`` takes a dict, JSON text or a path, as
    :func:`run` does; a scenario the study names by file is read from the
    study's folder. Raises ScenarioError when the study is refused.

    A run is a dict ``{"values": [one per parameter], "repeat": r}`` as
    ``grid()`` gives it (plus, in a threshold study, the searched parameter's
    value last). Rows are dicts keyed by ``columns``, the same rows
    ``roverlab study`` writes. A Study pickles as its document and folder, so
    it can be sent to other processes (which need the same folder).
    """

    def __init__(self, document, folder=None):
        self.document, self.folder = _document(document, folder)
        self._study = _core.Study(self.document, self.folder)

    def __reduce__(self):
        return (Study, (self.document, self.folder))

    @property
    def columns(self):
        """A row's columns: parameters, ok, outcome, state_hash, predicates, measures."""
        return list(self._study.columns)

    @property
    def threshold_columns(self):
        """The columns of a threshold search's result ([] without a threshold)."""
        return list(self._study.threshold_columns)

    @property
    def is_threshold(self):
        """True when the study searches a threshold (then ``grid()`` lists the combinations)."""
        return self._study.is_threshold

    def grid(self):
        """Every run of the grid in order (the last parameter fastest), each ``repeats`` times.

        In a threshold study, the combinations to search.
        """
        return json.loads(self._study.grid())

    def run_row(self, run, controller=None):
        """Runs one run to the scenario's duration; its row (a refused value gives ok false).

        ``controller``: a class (or function) making a controller (docs/controllers.md), one per
        row, whose ``init(model)`` gets the row's ``model["params"]`` (the scenario's
        control.program.params, which the study's parameters may set).
        """
        if controller is None:
            return _ordered(json.loads(self._study.run_row(json.dumps(run))), self.columns)
        make = controller_factory(controller)
        row = run_controller_row(self._study.row(json.dumps(run)), make)
        return _ordered(json.loads(row), self.columns)

    def search(self, run, rows=None, controller=None):
        """Searches the threshold for one combination of ``grid()``; the result row.

        Bisection as ``roverlab study`` does it; each run goes through the same
        row runner as ``run_row`` (with ``controller`` as it takes it). When
        ``rows`` is a list, the rows run are appended to it.
        """
        if controller is None:
            out = json.loads(self._study.search(json.dumps(run)))
        else:
            make = controller_factory(controller)
            out = json.loads(self._study.search_with(
                json.dumps(run), lambda text: run_controller_row(self._study.row(text), make)))
        if rows is not None:
            columns = self.columns
            rows.extend(_ordered(row, columns) for row in out["rows"])
        return _ordered(out["result"], self.threshold_columns)

    def assignments(self, run):
        """The ``--set`` assignments that repeat the run with ``roverlab run``."""
        return list(self._study.assignments(json.dumps(run)))

    def key(self, run):
        """The run's key among the study's runs (its values and repeat as JSON text)."""
        return self._study.key(json.dumps(run))


def _ordered(row, columns):
    """The row's keys in the columns' order (the core's JSON objects sort them)."""
    return {**{c: row[c] for c in columns if c in row}, **row}


def csv_field(value):
    """A row's value as ``roverlab study`` writes it in a CSV (shortest exact numbers)."""
    return _core.csv_field(json.dumps(value))


from .env import Env  # noqa: E402  (env uses _document and _sets above)
