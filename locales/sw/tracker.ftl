# Ujumbe wa hali ya oda unaotumwa na kifuatiliaji cha oda (ujumbe mmoja wa hali kwa kila oda).

tracker-onramp-pending = ⏳ Tunasubiri malipo yako ya M-Pesa kwa ununuzi wako wa KSh { $amount } (oda { $orderId }). Weka PIN yako ya M-Pesa kwenye ombi lililotokea kwenye simu yako.
tracker-onramp-paid = ✅ Malipo ya M-Pesa ya oda { $orderId } yamepokelewa (risiti { $receipt }). Tunatuma { $symbol } zako sasa…
tracker-onramp-done = 🎉 Imekamilika! Tumepokea malipo yako ya M-Pesa kwa ununuzi wako wa KSh { $amount } (risiti { $receipt }) na tumetuma { $tokens } { $symbol } kwenye pochi yako { $wallet } kwenye mtandao wa { $network }.
tracker-tx-hash = Muamala: { $hash }
tracker-explorer-button = 🔎 Tazama muamala
tracker-onramp-failed = ❌ Malipo yako ya M-Pesa kwa ununuzi wako wa KSh { $amount } (oda { $orderId }) hayakufanikiwa.
tracker-onramp-cancelled = ❌ Malipo ya M-Pesa kwa ununuzi wako wa KSh { $amount } (oda { $orderId }) yameghairiwa.

tracker-reason-insufficient-balance = Sababu: hakukuwa na pesa za kutosha kwenye akaunti yako ya M-Pesa.
tracker-reason-cancelled = Sababu: ombi la M-Pesa lilighairiwa.
tracker-reason-timeout = Sababu: muda wa ombi la M-Pesa uliisha kabla PIN haijawekwa.
tracker-reason-wrong-pin = Sababu: PIN ya M-Pesa haikukubaliwa.
tracker-reason-limit = Sababu: kiasi kimezidi kikomo cha M-Pesa.
tracker-reason-unknown = M-Pesa haikutoa sababu.
tracker-reason-other = Sababu iliyotolewa na M-Pesa: { $detail }

tracker-ticket-hint = Kama pesa zimetoka kwenye akaunti yako, fungua tiketi ya kurejeshewa pesa na timu yetu itashughulikia.
tracker-ticket-button = Omba marejesho
tracker-talk-button = 💬 Ongea na mtu

tracker-offramp-pending = ⏳ Tunatuma KSh { $amount } kwa { $phone } kupitia M-Pesa (oda { $orderId })…
tracker-offramp-done = ✅ KSh { $amount } zimetumwa kwa { $name } ({ $phone }). Risiti ya M-Pesa: { $receipt }.
tracker-offramp-done-noname = ✅ KSh { $amount } zimetumwa kwa { $phone }. Risiti ya M-Pesa: { $receipt }.
tracker-offramp-failed = ❌ Malipo ya M-Pesa ya KSh { $amount } kwa { $phone } (oda { $orderId }) hayakufanikiwa.

tracker-escalated-onramp-horizon = ⚠️ Oda { $orderId } inachukua muda mrefu kuliko kawaida. Tumeiarifu timu yetu ya huduma kwa wateja; wataikagua na kukujibu hapa. Tafadhali usilipe tena.
tracker-escalated-offramp-horizon = ⚠️ Malipo ya oda { $orderId } yanachukua muda mrefu kuliko kawaida. Tumeiarifu timu yetu ya huduma kwa wateja; wataikagua na kukujibu hapa.
tracker-escalated-deposit = ⚠️ Malipo yako ya oda { $orderId } yamepokelewa, lakini hatukuweza kuthibitisha kwamba tokeni zako zimetumwa. Timu yetu ya msaada imearifiwa na itaikagua. Tafadhali usilipe tena.

tracker-try-again-hint = Hakuna pesa iliyochukuliwa. Unaweza kujaribu tena ukiwa tayari.
tracker-try-again-button = Jaribu tena
tracker-buy-again-button = Nunua tena
tracker-payout-ticket-hint = Tokeni zako ziko kwa huduma. Fungua tiketi ya kurejeshewa na timu yetu itakulipa au kuzirudisha.
tracker-payout-reason-cancelled = Sababu: malipo yalighairiwa na M-Pesa.
tracker-payout-reason-timeout = Sababu: M-Pesa haikuthibitisha malipo kwa wakati.
tracker-payout-reason-limit = Sababu: kiasi kiko juu ya kikomo cha M-Pesa kwa nambari inayopokea.
tracker-payout-reason-number = Sababu: M-Pesa haikukubali nambari inayopokea.
