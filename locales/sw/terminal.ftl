terminal-welcome = rampchat: nunua na uuze kripto kwa M-Pesa. Andika ujumbe (jaribu /start au /help); chagua chaguo lenye nambari kwa kuandika nambari yake au jina lake.
terminal-ramp-sandbox = Huduma ya ramp: ya majaribio, ya ndani, kwenye { $url } (hakuna pesa halisi inayohamishwa).
terminal-ramp-remote = Huduma ya ramp: { $url } (API ya { $generation }).
terminal-state-memory = Hali ya mazungumzo: kwenye kumbukumbu (hupotea ukifunga; weka REDIS_URL kuihifadhi).
terminal-state-redis = Hali ya mazungumzo: Redis.
terminal-telegram-hint = Telegram: weka TELEGRAM_BOT_TOKEN ili boti iendeshwe huko badala ya dirisha hili la amri.
terminal-whatsapp-hint = WhatsApp: weka WHATSAPP_ENABLED=1 (pamoja na REDIS_URL) ili kuunganisha nambari ya WhatsApp pia.
terminal-whatsapp-on = WhatsApp: imewashwa (inaendeshwa pamoja na dirisha hili la amri).
terminal-phone-hint = (Andika nambari yako ya M-Pesa, kwa mfano 0712345678.)
terminal-file-saved = Faili imehifadhiwa: { $path }
terminal-bye = Kwaheri.
terminal-devchain-starting = Kuuza: ninawasha minyororo ya majaribio ya ndani inayochukua nafasi ya Polygon na Algorand (mara ya kwanza tu). Inachukua takriban sekunde 5 hadi 20; jibu maswali wakati huo, kiungo cha kusaini kitakuja ikiwa tayari.

# `npm start -- --help`: printed instead of starting the chat.
terminal-usage =
    Matumizi: npm start [-- --help]
    
    Huendesha rampchat: kwa kawaida gumzo kwenye dirisha hili la amri (huduma ya ramp ya majaribio ya ndani, hali ya mazungumzo kwenye kumbukumbu; hakuna pesa halisi inayohamishwa); boti ya Telegram badala yake TELEGRAM_BOT_TOKEN ikiwekwa; WhatsApp pia kwa WHATSAPP_ENABLED=1.
    
    Kwenye gumzo: /start, /buy, /sell, /quote, /price, /history, /receipt (au /risiti), /statement (au /taarifa), /save (au /weka), /savings, /alert, /alerts, /support, /ticket, /settings, /language, /cancel, /menu, /help. Jibu chaguo kwa kuandika nambari yake au jina lake. Maandishi yanaweza kuletwa kwa bomba: printf 'Buy\n500\n' | npm start
    
    Chaguo:
      -h, --help   onyesha haya kisha utoke
    
    Mipangilio ni vigezo vya mazingira, kila kimoja kimeelezwa kwenye .env.example (kwa mfano REDIS_URL, RAMP_BASE_URL, TELEGRAM_BOT_TOKEN, WHATSAPP_ENABLED, LOG_LEVEL, LOG_FILE, TERMINAL_EOF_GRACE_MS). npm run doctor huzikagua dhidi ya huduma halisi; README.md ina mengine.
terminal-unknown-option = Chaguo { $option } halijulikani. Tazama: npm start -- --help
