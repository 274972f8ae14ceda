/**
 * How channels without buttons name choices: a question's choices are numbered, a notice's (an
 * OutMessage with `notice`) lettered, so a number typed next always answers the question asked.
 */
export const choiceKey = (index: number, lettered: boolean): string =>
  lettered ? String.fromCharCode(65 + index) : String(index + 1);
