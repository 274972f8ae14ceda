# Oda zako mwenyewe (ulizofanya hapa), za karibuni kwanza, na kilichotokea kwa kila moja.

history-own-title = 🧾 Oda zako:
history-own-empty = Bado huna oda. Oda unazofanya hapa (kununua au kuuza) zitaorodheshwa pamoja na kilichotokea.
history-buy-completed = { $date } · Ulinunua { $crypto } kwa { history-buy-amount } kwenye { $network } ✅ imekamilika (oda { $orderId }, M-Pesa { $receipt }, muamala { $hash })
history-buy-failed = { $date } · Ununuzi wa { $crypto } kwa { history-buy-amount } ❌ haukufaulu: malipo ya M-Pesa hayakupita, hakuna tokeni zilizotumwa (oda { $orderId })
history-buy-cancelled = { $date } · Ununuzi wa { $crypto } kwa { history-buy-amount } ✖️ ulighairiwa: hakuna pesa iliyochukuliwa, hakuna tokeni zilizotumwa (oda { $orderId })
history-buy-pending = { $date } · Ununuzi wa { $crypto } kwa { history-buy-amount } ⏳ bado unaendelea (oda { $orderId })
history-buy-support = { $date } · Ununuzi wa { $crypto } kwa { history-buy-amount } 🧑‍💼 uko kwa timu yetu ya huduma (oda { $orderId })
history-sell-completed = { $date } · Uliuza { $crypto } kwa { $kes } ✅ umelipwa (oda { $orderId }, M-Pesa { $receipt })
history-sell-failed = { $date } · Mauzo ya { $crypto } kwa { $kes } ❌ malipo hayakufaulu (oda { $orderId }); ili urejeshewe, fungua tiketi: /tiketi { $orderId }
history-sell-cancelled = { $date } · Mauzo ya { $crypto } kwa { $kes } ✖️ malipo yalighairiwa (oda { $orderId }); ili urejeshewe, fungua tiketi: /tiketi { $orderId }
history-sell-pending = { $date } · Mauzo ya { $crypto } kwa { $kes } ⏳ malipo bado yanaendelea (oda { $orderId })
history-sell-support = { $date } · Mauzo ya { $crypto } kwa { $kes } 🧑‍💼 yako kwa timu yetu ya huduma (oda { $orderId })
# Kiasi cha ununuzi kama mazungumzo yalivyokitaja, kisha ada na jumla iliyolipwa (#25, safari).
history-buy-amount = { $fee ->
        [none] { $amount }
       *[other] { $amount } + ada { $fee } = { $total }
    }
history-page = Ukurasa { $page } kati ya { $pages }
history-button-previous = ◀️ Iliyotangulia
history-button-next = Inayofuata ▶️
history-button-statement = 📄 Taarifa ya mwezi
