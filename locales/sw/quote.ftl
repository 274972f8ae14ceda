# Bei za kununua na kuuza.

quote-ask-direction = Unataka bei ya kununua au ya kuuza?
quote-button-buy = Nunua
quote-button-sell = Uza
quote-direction-unknown = Tafadhali chagua Nunua au Uza.
quote-ask-token = Tokeni gani?
quote-ask-network = { $token } iko kwenye mtandao gani?
quote-token-not-on-network = { $token } haipatikani kwenye { $network }.
quote-ask-amount-kes = Unataka kutumia shilingi ngapi za Kenya?
quote-ask-amount-token = Unataka kupokea shilingi ngapi kwa { $token } zako? Andika kiasi kama 1000, au tokeni za kuuza kama 10 { $token }.
quote-amount-invalid = "{ $amount }" si kiasi ninachoweza kutumia.
quote-title = Bei ya { $token } kwenye { $network }:
quote-rate = Kiwango cha ubadilishaji: 1 { $token } = { $rate }
quote-fee = Ada: { $feeKes } (takriban { $feeToken })
quote-pay-kes = Utalipa: { $amount }, pamoja na ada
quote-receive-token = Utapokea: takriban { $amount }
quote-pay-token = Utatuma: { $amount }, pamoja na ada
quote-receive-kes = Utapokea: takriban { $amount } kwenye M-Pesa
quote-limits = Mipaka: kuanzia { $min } hadi { $max }
quote-outside-limits = ⚠️ Kiasi hiki kiko nje ya mipaka, kwa hiyo hakiwezi kuagizwa.
quote-not-sellable = { $token } kwenye mtandao huu haiwezi kuuzwa hapa (tunatoa tokeni tu ambazo njia yetu ya kuuza inaweza kutuma kwa ramp).
quote-indicative = Bei hubadilika; bei itaangaliwa tena utakapothibitisha oda.
quote-button-sell-this = 💸 Uza hii
quote-button-buy-this = 🛒 Nunua hii
quote-button-again = 💱 Bei nyingine
quote-shown-hint = Andika kiasi kingine upate bei mpya, au chagua hapa chini.
