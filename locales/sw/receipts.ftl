# Risiti: ununuzi au mauzo yaliyokamilika kama picha moja (src/receipts), mistari yake, na kwa nini inakataliwa.

receipts-button = 🧾 Risiti
# Chini ya /history: risiti ya oda moja iliyokamilika hapo.
receipts-button-order = 🧾 Risiti { $orderId }
receipts-title = { $side ->
    [sell] Risiti · kripto imeuzwa kwa M-Pesa
   *[buy] Risiti · kripto imenunuliwa kwa M-Pesa
}
# Mstari mmoja wa risiti: jina lake (kwa key) na thamani yake, tayari imepangwa.
receipts-label = { $key ->
    [paid] Ulilipa
    [received] Ulipokea
    [sent] Ulituma
    [network] Mtandao
    [fee] Ada (imejumuishwa)
    [mpesa] Msimbo wa M-Pesa
    [hash] Muamala
    [order] Oda
   *[date] Tarehe
}
receipts-row = { receipts-label }: { $value }
receipts-scan = Changanua uone muamala mtandaoni
receipts-footer = rampchat · saa za Nairobi (EAT, UTC+3)
receipts-caption = 🧾 Risiti yako ya oda { $orderId }. Itunze au uitume kwa mwingine.
receipts-ask = Oda gani? Gusa 🧾 Risiti chini ya oda iliyokamilika, au andika /receipt na nambari ya oda (/history inaziorodhesha).
receipts-unknown = Sioni oda { $orderId } yako. Risiti ni ya oda zako mwenyewe tu: /history inaziorodhesha.
receipts-unfinished = Oda { $orderId } bado haijakamilika: risiti yake itakuwa tayari pesa zikishahamishwa.
receipts-failed = Oda { $orderId } haikufanikiwa: hakuna pesa zilizohamishwa, kwa hiyo hakuna risiti. /history inaonyesha kilichotokea.
receipts-draw-failed = Risiti haikuweza kutengenezwa sasa hivi. Tafadhali jaribu tena baada ya muda mfupi.
