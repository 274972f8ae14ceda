# WhatsApp channel texts (wa-…)

# Under a numbered menu: WhatsApp shows no buttons here.
wa-menu-hint = Reply with the number or the word of your choice.
wa-menu-hint-letters = Reply with the letter or the word of your choice.

# A message without text (photo, voice note, sticker, location…).
wa-text-only = I can only read text messages. Please type your answer, or send /start to begin again.

# The sender's phone number is hidden from us (WhatsApp shows only their private id).
wa-number-hidden = I can't see your phone number, and I need it to know who you are and for M-Pesa. Please let this chat see your number (or write to us from your phone number), then send "hi" again.
