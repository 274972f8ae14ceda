# WhatsApp channel texts (wa-…)

# Under a numbered menu: WhatsApp shows no buttons here.
wa-menu-hint = Reply with the number or the word of your choice.
wa-menu-hint-letters = Reply with the letter or the word of your choice.

# A message without text (photo, voice note, sticker, location…).
wa-text-only = I can only read text messages. Please type your answer, or send /start to begin again.

# The sender's phone number is hidden from us (WhatsApp shows only their private id).
wa-number-hidden = I can't see your phone number, and I need it to know who you are and for M-Pesa. Please let this chat see your number (or write to us from your phone number), then send "hi" again.

# Cloud API (official) transport: real buttons and lists.

# The body of a buttons or list message that has no text of its own (e.g. after a link button).
wa-cloud-choose = What would you like to do next?
# The body of a link button message whose text went in the messages before it.
wa-cloud-open-link = Tap the button below to open the link.
# The button that opens a list of choices (at most 20 characters) and the list's heading (at most 24).
wa-cloud-list-button = See the options
wa-cloud-list-section = Options
# A tap on a button of an older question than the one being asked.
wa-cloud-button-stale = That button is on an older message. Please use the latest one.
