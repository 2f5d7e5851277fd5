// The name and description of an edited scenario say what is on screen and
// what it is based on: a robot change names it "<robot> on “<scenario>”", a
// terrain template "<robot> on “<scenario>”" too, with the template in the
// description; a scenario edited again keeps the one it was first based on.

/** The scenario a name says an edited one is based on: "rocker8 on “X”" is based on X. */
export function basedOn(name) {
  return /^\S+ on “(.*)”$/.exec(name ?? '')?.[1] ?? name ?? 'a scenario';
}
