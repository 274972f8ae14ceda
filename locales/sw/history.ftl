# Oda zako mwenyewe (ulizofanya hapa), za karibuni kwanza, na kilichotokea kwa kila moja.

history-own-title = 🧾 Oda zako:
history-own-empty = Bado huna oda. Oda unazofanya hapa (kununua au kuuza) zitaorodheshwa pamoja na kilichotokea.
history-buy-completed = { $date } · Ulinunua { $crypto } kwa { $kes } kwenye { $network } ✅ imekamilika (oda { $orderId }, M-Pesa { $receipt }, muamala { $hash })
history-buy-failed = { $date } · Ununuzi wa { $crypto } kwa { $kes } ❌ haukufaulu: malipo ya M-Pesa hayakupita, hakuna tokeni zilizotumwa (oda { $orderId })
history-buy-cancelled = { $date } · Ununuzi wa { $crypto } kwa { $kes } ✖️ ulighairiwa: malipo ya M-Pesa yalighairiwa, hakuna tokeni zilizotumwa (oda { $orderId })
history-buy-pending = { $date } · Ununuzi wa { $crypto } kwa { $kes } ⏳ bado unaendelea (oda { $orderId })
history-buy-support = { $date } · Ununuzi wa { $crypto } kwa { $kes } 🧑‍💼 uko kwa timu yetu ya huduma (oda { $orderId })
history-sell-completed = { $date } · Uliuza { $crypto } kwa { $kes } ✅ umelipwa (oda { $orderId }, M-Pesa { $receipt })
history-sell-failed = { $date } · Mauzo ya { $crypto } kwa { $kes } ❌ malipo hayakufaulu (oda { $orderId }); timu yetu inaweza kusaidia kupitia /support
history-sell-cancelled = { $date } · Mauzo ya { $crypto } kwa { $kes } ✖️ yalighairiwa (oda { $orderId })
history-sell-pending = { $date } · Mauzo ya { $crypto } kwa { $kes } ⏳ malipo bado yanaendelea (oda { $orderId })
history-sell-support = { $date } · Mauzo ya { $crypto } kwa { $kes } 🧑‍💼 yako kwa timu yetu ya huduma (oda { $orderId })
history-page = Ukurasa { $page } kati ya { $pages }
history-button-previous = ◀️ Iliyotangulia
history-button-next = Inayofuata ▶️
