/**
 * How channels without buttons name choices: a question's choices are numbered, a notice's (an
 * OutMessage with `notice`) lettered, so a number typed next always answers the question asked.
 */
export const choiceKey = (index: number, lettered: boolean): string =>
  lettered ? String.fromCharCode(65 + index) : String(index + 1);

/**
 * Buttons whose meaning does not depend on the question on screen, answered whichever message they
 * were on: starting a flow from the menu, a notice's ticket, support, explorer or receipt (`rc:`) buttons, a confirm
 * that names its own flow instance, and the buttons of notices that name what they act on (a
 * standing buy's Pay now / Skip naming plan and run, a rate alert's Renew naming its slot, the
 * lists). Other buttons act only on the message that holds the current question.
 */
export function selfContained(id: string): boolean {
  return (
    /^(menu|ticket|support|explorer|rc):/.test(id) ||
    /:confirm:/.test(id) ||
    /^save:(pay|skip):/.test(id) ||
    /^al:renew:/.test(id) ||
    id === 'save:list' ||
    id === 'al:list'
  );
}
