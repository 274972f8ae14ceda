# Router, main menu and errors shared by every flow.

core-plain = { $text }
core-welcome = Welcome to rampchat! Buy crypto with M-Pesa and check prices, right here in the chat.
core-greeting = Hello! Good to see you.
core-menu-title = What would you like to do?
core-menu-buy = 🛒 Buy crypto
core-menu-quote = 💱 Check a price
core-menu-history = 📜 History
core-menu-help = 🆘 Help & support
core-menu-settings = ⚙️ Settings
core-button-back = ⬅️ Back
core-button-cancel = ✖️ Cancel
core-button-menu = 🏠 Main menu
core-button-stale = That button is no longer active.
core-cancelled = Cancelled.
core-nothing-to-cancel = There is nothing to cancel.
core-not-understood = Sorry, I did not understand that. Choose from the menu, or type /help.
core-unknown-command = I don't know the command { $command }.
core-unavailable = That is not available yet.
core-state-reset = Sorry, I lost track of our conversation, so we are starting again from the menu.
core-phone-invalid = { $phone } is not a Kenyan M-Pesa number. Use a number like 0712 345 678.
core-error-unavailable = The service is unavailable right now. Please try again in a few minutes.
core-error-refused = The service refused this: { $reason }
core-error-refused-plain = The service refused this request.
core-error-supported-networks = Supported networks: { $networks }
core-error-not-found = We could not find that.
core-error-duplicate = This was already filed as order { $orderId }.
