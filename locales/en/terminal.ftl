terminal-welcome = rampchat: buy and sell crypto with M-Pesa. Type a message (try /start or /help); press a numbered choice by typing its number or its label.
terminal-ramp-sandbox = Ramp: local sandbox at { $url } (no real money moves).
terminal-ramp-remote = Ramp: { $url } ({ $generation } API).
terminal-state-memory = State: in memory (lost on exit; set REDIS_URL to keep it).
terminal-state-redis = State: Redis.
terminal-telegram-hint = Telegram: set TELEGRAM_BOT_TOKEN to run the bot there instead of this terminal.
terminal-whatsapp-hint = WhatsApp: set WHATSAPP_ENABLED=1 (with REDIS_URL) to link a WhatsApp number as well.
terminal-whatsapp-on = WhatsApp: enabled (it runs alongside this terminal).
terminal-phone-hint = (Type your M-Pesa number, for example 0712345678.)
terminal-file-saved = File saved: { $path }
terminal-bye = Goodbye.
terminal-devchain-starting = Selling: starting the local test chains that stand in for Polygon and Algorand (first sell only). It takes about 5 to 20 seconds; answer the questions meanwhile, the signing link comes once they are up.

# `npm start -- --help`: printed instead of starting the chat.
terminal-usage =
    Usage: npm start [-- --help]
    
    Runs rampchat: by default a chat in this terminal (the local ramp sandbox, state in memory; no real money moves); the Telegram bot instead when TELEGRAM_BOT_TOKEN is set; WhatsApp as well with WHATSAPP_ENABLED=1.
    
    In the chat: /start, /buy, /sell, /quote, /price, /history, /receipt, /statement, /save, /savings, /alert, /alerts, /support, /ticket, /settings, /language, /cancel, /menu, /help. A choice is answered with its number or its label. A script can be piped in: printf 'Buy\n500\n' | npm start
    
    Options:
      -h, --help   print this and exit
    
    Settings are environment variables, each described in .env.example (for example REDIS_URL, RAMP_BASE_URL, TELEGRAM_BOT_TOKEN, WHATSAPP_ENABLED, LOG_LEVEL, LOG_FILE, TERMINAL_EOF_GRACE_MS). npm run doctor checks them against the real services; README.md tells the rest.
terminal-unknown-option = Unknown option { $option }. See: npm start -- --help
