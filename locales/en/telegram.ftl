# Telegram channel texts. Command descriptions appear in the bot's command menu.

tg-command-start = Start over and show the main menu
tg-command-menu = Show the main menu
tg-command-quote = Check the current price
tg-command-settings = Language, saved phone and wallets
tg-command-buy = Buy crypto with M-Pesa
tg-command-sell = Sell crypto for M-Pesa
tg-command-history = See your past orders
tg-command-save = Standing buys: save weekly or monthly
tg-command-alerts = Rate alerts: told once when a price crosses your level
tg-command-price = Price chart of a token: buy and sell rate over 24 hours, 7 or 30 days
tg-command-statement = This month's orders as a PDF and a CSV (or /statement october)
tg-command-receipt = A finished order's receipt as a picture (/receipt and the order id)
tg-command-help = How this bot works
tg-command-support = Talk to a person
tg-command-cancel = Cancel what you are doing

tg-share-phone = 📱 Share my phone number
tg-share-phone-placeholder = Or type your M-Pesa number
tg-share-phone-hint = You can also tap the button below to share the number of this Telegram account.
tg-phone-received = Thanks, I have your number.
tg-contact-not-yours = Please share your own number with the button below, or type your M-Pesa number.
tg-unsupported = I can only read text messages and button taps. Send /start to see the menu.
tg-error = Sorry, something went wrong on our side. Please try again in a moment.
tg-button-stale = That button is on an older message. Please use the latest one.
