# Help and how to reach support.

help-intro = I help you buy crypto with M-Pesa and check prices. Tokens go straight to your own wallet, and you pay only through the M-Pesa prompt on your phone.
help-commands = Commands: /buy to buy tokens (for example /buy 1000 USDT polygon), /quote to check a price, /history for past orders, /settings for your phone and wallets, /language to change the language, /cancel to stop what you are doing, /menu for the main menu.
help-button-person = 💬 Talk to a person
help-button-ticket = 🧾 Open a refund ticket
help-support-info = Our support team handles failed or stuck orders and refunds. Keep your order number ready (it starts with D- for purchases, WD- for sales) and your M-Pesa message if you have one. Never share your M-Pesa PIN or your wallet's secret recovery words with anyone, including us.
