# Arifa za bei: kuweka, kuorodhesha, kubadilisha, kuongeza muda na kufuta; ujumbe wa arifa.

alerts-ask-token = Nikufuatilie tokeni gani?
alerts-ask-network = Nifuatilie { $token } kwenye mtandao gani?
alerts-ask-side = Nikujulishe { $token } kwenye { $network } ikishuka chini ya bei fulani (vizuri kwa kununua) au ikipanda juu ya bei fulani (vizuri kwa kuuza)?
alerts-ask-level = Nikujulishe bei ya { $token } 1 { $side ->
    [below] ikishuka hadi KES ngapi au chini zaidi
   *[above] ikipanda hadi KES ngapi au juu zaidi
}? Kwa mfano 128 au 128.5.
alerts-level-invalid = "{ $text }" si bei ninayoweza kutumia. Andika bei kwa KES ya tokeni moja, kwa mfano 128 au 128.5.
alerts-token-unknown = Sijui tokeni "{ $token }".
alerts-not-on-network = { $token } haipatikani kwenye { $network }.
alerts-button-below = 📉 Ikishuka chini
alerts-button-above = 📈 Ikipanda juu
alerts-set = 🔔 Arifa { $slot } imewekwa: nitakujulisha mara moja bei ya { $token } 1 kwenye { $network } ikiwa { $side ->
    [below] { $level } au chini yake
   *[above] { $level } au juu yake
}. Itadumu hadi { $expires }.
alerts-changed = 🔔 Arifa { $slot } imebadilishwa: nitakujulisha mara moja bei ya { $token } 1 kwenye { $network } ikiwa { $side ->
    [below] { $level } au chini yake
   *[above] { $level } au juu yake
}. Itadumu hadi { $expires }.
alerts-full = Tayari una arifa { $max } za bei, idadi kubwa inayoruhusiwa. Futa au badilisha moja kwenye /alerts kwanza.
alerts-none = Huna arifa za bei. Weka moja kwa mfano kwa /alert USDT chini ya 128.
alerts-list-title = Arifa zako za bei ({ $count } kati ya { $max }):
alerts-item = { $slot }. { $token } kwenye { $network }, { $side ->
    [below] { $level } au chini yake
   *[above] { $level } au juu yake
}, hadi { $expires }
alerts-button-pick = 🔔 { $slot } { $token }
alerts-button-new = ➕ Arifa mpya
alerts-button-list = 🔔 Arifa zangu
alerts-button-change = ✏️ Badilisha bei
alerts-button-renew = 🔁 Ongeza muda
alerts-button-delete = 🗑 Futa
alerts-button-alert-me = 🔔 Nijulishe
alerts-button-buy-now = 🛒 Nunua sasa
alerts-button-sell-now = 💸 Uza sasa
alerts-deleted = Arifa { $slot } imefutwa.
alerts-renewed = 🔁 Muda wa arifa { $slot } umeongezwa: itadumu hadi { $expires }.
alerts-missing = Arifa { $slot } haipo tena (ilifutwa, au muda wake uliisha).
alerts-unavailable = Arifa za bei hazipatikani kwa sasa. Tafadhali jaribu tena baadaye.
alerts-fired-below = 🔔 { $token } kwenye { $network } sasa ni KSh { $rate } kwa { $token } 1, bei hii ni sawa au chini ya arifa yako ya KSh { $level }. Bei hubadilika: bei itaangaliwa tena utakapothibitisha ununuzi.
alerts-fired-above = 🔔 { $token } kwenye { $network } sasa inauzwa kwa KSh { $rate } kwa { $token } 1, bei hii ni sawa au juu ya arifa yako ya KSh { $level }. Bei hubadilika: bei itaangaliwa tena utakapothibitisha mauzo.
alerts-expiring = ⏳ Arifa yako ya { $token } kwenye { $network } kwa KSh { $level } itaisha tarehe { $expires }. Ongeza muda wake uidumishe kwa siku 30 nyingine.
alerts-lost-after-outage = ⚠️ Baada ya huduma kukatizwa, baadhi ya arifa zako za bei hazikuweza kurejeshwa (huna nafasi tupu kwa ajili yake). Tafadhali angalia arifa zako na uweke tena zile unazozikosa.
