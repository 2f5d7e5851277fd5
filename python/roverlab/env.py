"""roverlab.Env: a scenario as a Gymnasium-shaped environment (docs/python.md).

It works without Gymnasium; when ``gymnasium`` is importable, :class:`Env`
subclasses ``gymnasium.Env`` and its spaces are ``gymnasium.spaces.Box``.
"""

import json
import math

import numpy as np

from . import _core, _document, _sets
from .control import SPEED_COLUMNS, actuator_bounds, observation_view

try:  # optional: not in Debian
    import gymnasium
    from gymnasium.spaces import Box as _GymBox
except ImportError:
    gymnasium = None
    _GymBox = None

#: The control period of an Env that does not say (s): 20 Hz.
DEFAULT_ENV_PERIOD = 0.05


class Box:
    """A box of float64 vectors, as ``gymnasium.spaces.Box`` (used when Gymnasium is absent).

    ``low``, ``high`` (arrays, ±inf where unbounded), ``shape``, ``dtype``;
    ``sample()`` draws uniformly where bounded on both sides, from a normal
    distribution where unbounded and from a shifted exponential where bounded
    on one side (as Gymnasium does); ``contains(x)``; ``seed(seed)``.
    """

    def __init__(self, low, high, shape=None, dtype=np.float64, seed=None):
        self.dtype = np.dtype(dtype)
        if shape is None:
            shape = np.shape(low)
        self.shape = tuple(shape)
        self.low = np.broadcast_to(np.asarray(low, self.dtype), self.shape).copy()
        self.high = np.broadcast_to(np.asarray(high, self.dtype), self.shape).copy()
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed=None):
        self.np_random = np.random.default_rng(seed)
        return [seed]

    def sample(self):
        rng = self.np_random
        low, high = self.low, self.high
        bounded_low, bounded_high = np.isfinite(low), np.isfinite(high)
        out = rng.normal(size=self.shape)
        both = bounded_low & bounded_high
        out[both] = rng.uniform(low[both], high[both])
        only_low = bounded_low & ~bounded_high
        out[only_low] = low[only_low] + rng.exponential(size=int(only_low.sum()))
        only_high = ~bounded_low & bounded_high
        out[only_high] = high[only_high] - rng.exponential(size=int(only_high.sum()))
        return out.astype(self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        if x.shape != self.shape or not np.can_cast(x.dtype, self.dtype):
            return False
        return bool(np.all(x >= self.low) and np.all(x <= self.high))

    __contains__ = contains

    def __repr__(self):
        return f"Box({self.low}, {self.high}, {self.shape}, {self.dtype})"


def _box(low, high):
    if _GymBox is not None:
        return _GymBox(low=low, high=high, shape=low.shape, dtype=np.float64)
    return Box(low, high, low.shape, np.float64)


def forward_progress(before, after, action):
    """The default reward: how far the base moved forward in x over the period (m)."""
    return after.base.x_m - before.base.x_m


def _flipped(pitch, roll):
    """True when the base's up axis is more than 30° below the horizontal (the summary's ``flipped``).

    From the base's pitch and roll (rad, sim/tilt.h): the sines are the z
    components of its x and y axes, so the up axis' z component is
    ±√(1 − sin²pitch − sin²roll), negative when the base is upside down
    (pitch and roll beyond ±90°).
    """
    upside_down = math.cos(pitch) + math.cos(roll) < 0
    z = math.sqrt(max(0.0, 1.0 - math.sin(pitch) ** 2 - math.sin(roll) ** 2))
    return upside_down and -z < -0.5


class Env(gymnasium.Env if gymnasium is not None else object):
    """A scenario as a reinforcement-learning environment, Gymnasium's API without needing it.

    ``Env(scenario, folder=None, sets=None, period=0.05, reward=None)``:
    ``scenario``, ``folder`` and ``sets`` as for :class:`roverlab.World`.

    - ``reset(seed=None, options=None) -> (obs, info)`` starts the scenario
      again from its start (a new World).
    - ``step(action) -> (obs, reward, terminated, truncated, info)`` sets the
      action and runs ``period`` seconds of simulated time.
    - ``obs``: the observation row (float64, ``observation_columns``), a new
      array each time, in which what the core gives as NaN reads 0 (an absent
      wheel touch: the ``contacts`` columns say how many there are; a wheel's
      ``ground_z_m`` over nothing). ``observation`` is the nested read-only view of
      the last one (``env.observation.base.pitch_rad``).
    - ``action``: every actuator's target, in ``action_columns`` order (the
      core's command columns after the three speed columns): a speed
      (rad/s, m/s), a position (rad, m) or a torque (N·m, N), each in its
      actuator's mode. ``action_space`` bounds them as the core clamps them:
      a drive wheel's speed ±max_wheel_speed, a position target its joint's
      range, a torque the actuator's limit; ±inf where the core does not
      clamp. A value beyond them is clamped (``info["clamped"]`` counts
      them); NaN keeps the actuator's last target.
    - ``reward(before, after, action) -> float``, with ``before`` and
      ``after`` the nested views of the observations at the start and end of
      the period; the default, :func:`forward_progress`, is the base's
      progress in x (m).
    - ``terminated``: the run stopped (``info["outcome"]`` ``"blew_up"`` or
      ``"left_terrain"``) or the base flipped over (the summary's criterion,
      checked at the end of each period). ``truncated``: the scenario's
      ``simulation.duration`` is reached (the last period is cut short to end
      there).
    - ``seed`` seeds ``np_random`` and the action space's ``sample()``; the
      simulation itself is deterministic and ignores it: the same actions give
      the same observations, whatever the seed.
    """

    metadata = {"render_modes": []}
    render_mode = None
    spec = None

    def __init__(self, scenario, folder=None, sets=None, period=DEFAULT_ENV_PERIOD, reward=None):
        self._text, self._folder = _document(scenario, folder)
        self._sets = _sets(sets)
        self._world = _core.World(self._text, self._folder, self._sets)
        self._fresh = True
        self.model = json.loads(self._world.model())
        self.dt, self.duration = self.model["dt"], self.model["duration"]
        if (isinstance(period, bool) or not isinstance(period, (int, float))
                or not self.dt <= period <= max(self.duration, self.dt)):
            raise ValueError(f"period must be a number of seconds in [{self.dt:g}, "
                             f"{max(self.duration, self.dt):g}], got {period!r}")
        self.period = float(period)
        if reward is not None and not callable(reward):
            raise TypeError("reward must be a function reward(before, after, action) -> float")
        self.reward = forward_progress if reward is None else reward
        self.observation_columns = tuple(self._world.observation_columns)
        commands = list(self._world.command_columns)
        if tuple(commands[:3]) != SPEED_COLUMNS:
            raise RuntimeError(f"unexpected command columns {commands[:3]}")
        self.action_columns = tuple(c[len("actuators."):] for c in commands[3:])
        low, high = actuator_bounds(self.model, self.action_columns)
        self.action_space = _box(low, high)
        n = len(self.observation_columns)
        self.observation_space = _box(np.full(n, -np.inf), np.full(n, np.inf))
        self._row = np.zeros(n)
        self._before_row = np.zeros(n)
        self.observation = observation_view(self.observation_columns, self._row)
        self._before = observation_view(self.observation_columns, self._before_row)
        self._command = np.full(len(commands), np.nan)
        self._total = max(0, round(self.duration / self.dt))
        self._pitch = self.observation_columns.index("base.pitch_rad")
        self._roll = self.observation_columns.index("base.roll_rad")
        self._done = True
        self._np_random = None

    @property
    def np_random(self):
        """The Env's random generator (seeded by ``reset(seed=...)``); the simulation does not use it."""
        if self._np_random is None:
            self._np_random = np.random.default_rng()
        return self._np_random

    @np_random.setter
    def np_random(self, value):
        self._np_random = value

    @property
    def unwrapped(self):
        return self

    @property
    def time(self):
        """Simulated time (s)."""
        return self._world.time

    @property
    def state_hash(self):
        """The state's fingerprint (16 hex digits), as ``World.state_hash``."""
        return self._world.state_hash

    def summary(self):
        """The run's summary so far, as ``World.summary()``."""
        return json.loads(self._world.summary())

    def reset(self, *, seed=None, options=None):
        """Starts the scenario again; ``(obs, info)``. ``options`` is not used."""
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
            self.action_space.seed(seed)
        if not self._fresh:
            self._world = _core.World(self._text, self._folder, self._sets)
        self._fresh = False
        if not self._world.attach_program(self.period):
            raise ValueError("the scenario names a controller (control.controller), which would "
                             'drive the robot too: set it to "none" (sets=["control.controller=none"])')
        self._world.observation(self._row)
        self._done = False
        return self._obs(), {"time_s": self._world.time, "seed": seed}

    def _obs(self):
        obs = self._row.copy()
        obs[np.isnan(obs)] = 0.0
        return obs

    def step(self, action):
        """Sets every actuator's target to ``action`` and runs one period; the five-tuple."""
        if self._done:
            raise RuntimeError("the episode has ended (or not begun): call reset()")
        action = np.asarray(action, dtype=np.float64)
        if action.shape != (len(self.action_columns),):
            raise ValueError(f"action must have shape ({len(self.action_columns)},), one target per "
                             f"actuator {self.action_columns}, got shape {action.shape}")
        world = self._world
        self._command[3:] = action
        clamped = world.command(self._command)
        np.copyto(self._before_row, self._row)
        world.step(self._total - world.steps)  # stops when the next period is due
        world.observation(self._row)
        outcome = world.outcome
        flipped = _flipped(self._row[self._pitch], self._row[self._roll])
        terminated = outcome != "ok" or flipped
        truncated = not terminated and world.steps >= self._total
        self._done = terminated or truncated
        reward = float(self.reward(self._before, self.observation, action))
        info = {"time_s": world.time, "outcome": outcome, "flipped": flipped, "clamped": clamped}
        if outcome != "ok":
            info["error"] = world.error
        return self._obs(), reward, terminated, truncated, info

    def render(self):
        return None

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return (f"<roverlab.Env {self.model.get('name') or self.model['robot']!r}: "
                f"{len(self.action_columns)} actions, {len(self.observation_columns)} observations, "
                f"period {self.period:g} s>")
