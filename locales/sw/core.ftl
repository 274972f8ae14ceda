# Kiongozi, menyu kuu na makosa yanayotumiwa na kila hatua.

core-plain = { $text }
core-welcome = Karibu rampchat! Nunua crypto kwa M-Pesa na uangalie bei, hapa hapa kwenye gumzo.
core-greeting = Habari! Karibu tena.
core-menu-title = Ungependa kufanya nini?
core-menu-buy = 🛒 Nunua crypto
core-menu-quote = 💱 Angalia bei
core-menu-history = 📜 Historia
core-menu-help = 🆘 Msaada
core-menu-settings = ⚙️ Mipangilio
core-button-back = ⬅️ Rudi
core-button-cancel = ✖️ Ghairi
core-button-menu = 🏠 Menyu kuu
core-button-stale = Kitufe hicho hakitumiki tena.
core-cancelled = Imeghairiwa.
core-nothing-to-cancel = Hakuna cha kughairi.
core-not-understood = Samahani, sijaelewa. Chagua kwenye menyu, au andika /help.
core-unknown-command = Sijui amri { $command }.
core-unavailable = Huduma hiyo bado haipatikani.
core-state-reset = Samahani, nimepoteza mfuatano wa mazungumzo yetu, kwa hiyo tunaanza upya kwenye menyu.
core-phone-invalid = { $phone } si nambari ya M-Pesa ya Kenya. Tumia nambari kama 0712 345 678.
core-error-unavailable = Huduma haipatikani kwa sasa. Tafadhali jaribu tena baada ya dakika chache.
core-error-refused = Huduma imekataa ombi hili: { $reason }
core-error-refused-plain = Huduma imekataa ombi hili.
core-error-supported-networks = Mitandao inayotumika: { $networks }
core-error-not-found = Hatukuweza kukipata.
core-error-duplicate = Hili tayari limewasilishwa kama oda { $orderId }.
