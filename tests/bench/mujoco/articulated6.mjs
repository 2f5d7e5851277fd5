// MJCF of a model equivalent to Roverlab's articulated6 at the 0.65 m step
// (terrains/step-articulated6.json): same masses, geometry, wheel inertia,
// drives and limits (docs/robots.md), dt = 0.4 ms, friction 0.8, wheels as
// cylinders. Only wheels touch the terrain, as in Roverlab with chassis
// contact off. `extraBoxes` adds 0.5 × 0.5 × 0.1 m boxes beside the path.
export function articulated6Mjcf({ extraBoxes = 0, integrator = 'Euler' } = {}) {
  const boxes = [];
  const side = Math.ceil(Math.sqrt(extraBoxes));
  for (let i = 0; i < extraBoxes; i++) {
    const x = -10 + 0.6 * (i % side);
    const y = 4 + 0.6 * Math.floor(i / side);
    boxes.push(`<geom type="box" pos="${x} ${y} 0.05" size="0.25 0.25 0.05" class="terrain"/>`);
  }
  const wheel = (name, x, y, z) => `
        <body name="${name}" pos="${x} ${y} ${z}">
          <joint name="${name}" type="hinge" axis="0 1 0"/>
          <geom type="cylinder" size="0.19 0.06" euler="90 0 0" mass="4" class="wheel"/>
        </body>`;
  const section = (end, s) => `
      <body name="fold_${end}" pos="${0.215 * s} 0 0.135">
        <joint name="fold_${end}" type="hinge" axis="0 ${-s} 0" range="-90 90" limited="true" damping="300"/>
        <geom type="box" size="0.05 0.2 0.05" mass="5" class="body"/>
        <body name="section_${end}">
          <joint name="extend_${end}" type="slide" axis="${s} 0 0" range="0 0.18" limited="true" damping="1000"/>
          <geom type="box" pos="${0.1 * s} 0 -0.0675" size="0.15 0.2 0.075" mass="25" class="body"/>
          ${wheel(`wheel_${end}_left`, 0.215 * s, 0.3, -0.135)}
          ${wheel(`wheel_${end}_right`, 0.215 * s, -0.3, -0.135)}
        </body>
      </body>`;
  const wheels = ['middle_left', 'middle_right', 'front_left', 'front_right', 'rear_left', 'rear_right'];
  return `<mujoco model="articulated6">
  <option timestep="0.0004" gravity="0 0 -9.81" integrator="${integrator}"/>
  <default>
    <default class="terrain"><geom contype="1" conaffinity="1" friction="0.8 0.005 0.0001"/></default>
    <default class="wheel"><geom contype="1" conaffinity="0" friction="0.8 0.005 0.0001"/></default>
    <default class="body"><geom contype="0" conaffinity="0"/></default>
  </default>
  <worldbody>
    <geom type="box" pos="10 0 -0.5" size="20 3 0.5" class="terrain"/>
    <geom type="box" pos="4.5 0 -0.175" size="3 3 0.825" class="terrain"/>
    ${boxes.join('\n    ')}
    <body name="middle" pos="0 0 0.19">
      <freejoint/>
      <geom type="box" pos="0 0 0.05" size="0.25 0.2 0.1" mass="42" class="body"/>
      ${wheel('wheel_middle_left', 0, 0.3, 0)}
      ${wheel('wheel_middle_right', 0, -0.3, 0)}
      ${section('front', 1)}
      ${section('rear', -1)}
    </body>
  </worldbody>
  <actuator>
    ${wheels.map((w) => `<velocity joint="wheel_${w}" kv="100" forcelimited="true" forcerange="-60 60"/>`).join('\n    ')}
    <position joint="fold_front" kp="5000" forcelimited="true" forcerange="-800 800"/>
    <position joint="fold_rear" kp="5000" forcelimited="true" forcerange="-800 800"/>
    <position joint="extend_front" kp="20000" forcelimited="true" forcerange="-2000 2000"/>
    <position joint="extend_rear" kp="20000" forcelimited="true" forcerange="-2000 2000"/>
  </actuator>
</mujoco>`;
}
