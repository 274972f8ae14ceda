# Chati za bei: /price, kitufe cha Chati chini ya bei; maneno ndani ya picha na maelezo yake.

charts-button-chart = 📈 Chati
charts-ask-token = Ungependa chati ya bei ya tokeni gani?
charts-ask-network = { $token } iko kwenye mitandao kadhaa. Chati ya mtandao upi?
charts-token-unknown = Sijui tokeni "{ $token }".
charts-legend-buy = Bei ya kununua
charts-legend-sell = Bei ya kuuza
charts-range = { $range ->
    [day] Saa 24
    [week] Siku 7
   *[month] Siku 30
}
charts-range-on = • { $range ->
    [day] Saa 24
    [week] Siku 7
   *[month] Siku 30
} •
charts-title-24h = { $token } kwenye { $network }, saa 24 zilizopita (KES kwa { $token } 1)
charts-title-7d = { $token } kwenye { $network }, siku 7 zilizopita (KES kwa { $token } 1)
charts-title-30d = { $token } kwenye { $network }, siku 30 zilizopita (KES kwa { $token } 1)
charts-buy-now = 🟢 Bei ya kununua sasa: { $rate }
charts-sell-now = 🟠 Bei ya kuuza sasa: { $rate }
charts-buy-change = 🟢 Bei ya kununua sasa: { $rate } ({ $change } kwa { $range ->
    [day] saa 24
    [week] siku 7
   *[month] siku 30
})
charts-sell-change = 🟠 Bei ya kuuza sasa: { $rate } ({ $change } kwa { $range ->
    [day] saa 24
    [week] siku 7
   *[month] siku 30
})
charts-since = Bei zimehifadhiwa tangu { $since }: chati inajazwa kadiri zinavyokuja.
charts-empty = Bado sina bei za { $token } kwenye { $network }. Nitaziandika kila dakika kuanzia sasa: uliza tena baada ya dakika chache.
charts-failed = Sikuweza kuchora chati sasa hivi. Tafadhali jaribu tena baada ya muda mfupi.
