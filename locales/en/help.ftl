# Help and how to reach support.

help-intro = I help you buy and sell crypto with M-Pesa: buy tokens and pay through the M-Pesa prompt on your phone, sell tokens and get shillings on M-Pesa, check prices, see your past orders and reach a person when something goes wrong. Tokens go straight to your own wallet.
help-commands = Commands: /buy to buy tokens (for example /buy 1000 USDT polygon), /sell to sell tokens for M-Pesa (for example /sell 1000 KES USDT polygon), /quote to check a price, /history for past orders, /receipt and an order id for a finished order's receipt as a picture, /support to talk to a person, /ticket to ask for a refund of a failed order, /save for a standing buy (for example /save 500 KES USDT every friday; /savings lists them), /settings for your phone and wallets, /language to change the language, /cancel to stop what you are doing, /menu for the main menu.
help-button-person = 💬 Talk to a person
help-button-ticket = 🧾 Open a refund ticket
help-support-info = Our support team handles failed or stuck orders and refunds. Keep your order number ready (it starts with D- for purchases, WD- for sales) and your M-Pesa message if you have one. Never share your M-Pesa PIN or your wallet's secret recovery words with anyone, including us.
help-commands-alerts = Rate alerts: /alert USDT below 128 tells you once when 1 USDT can be bought for KES 128 or less (or /alert USDT above 135 when it sells for more); /alerts lists them to change, renew or delete.
help-commands-charts = Price charts: /price USDT sends a picture of its buy and sell rate over 24 hours, with buttons for 7 and 30 days.
help-commands-statements = Statements: /statement sends this month's orders as a PDF and a CSV; /statement october or /statement 2026-09 an earlier month.
