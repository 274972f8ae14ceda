terminal-welcome = rampchat: buy and sell crypto with M-Pesa. Type a message (try /start or /help); press a numbered choice by typing its number or its label.
terminal-ramp-sandbox = Ramp: local sandbox at { $url } (no real money moves).
terminal-ramp-remote = Ramp: { $url } ({ $generation } API).
terminal-state-memory = State: in memory (lost on exit; set REDIS_URL to keep it).
terminal-state-redis = State: Redis.
terminal-telegram-hint = Telegram: set TELEGRAM_BOT_TOKEN to run the bot there instead of this terminal.
terminal-whatsapp-hint = WhatsApp: set WHATSAPP_ENABLED=1 (with REDIS_URL) to link a WhatsApp number as well.
terminal-whatsapp-on = WhatsApp: enabled (it runs alongside this terminal).
terminal-phone-hint = (Type your M-Pesa number, for example 0712345678.)
terminal-bye = Goodbye.
terminal-devchain-starting = Selling: starting the local test chains that stand in for Polygon and Algorand (first sell only, about a second).
