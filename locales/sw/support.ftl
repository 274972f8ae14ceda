# Msaada: kuongea na mtu, tiketi za kurejeshewa pesa, na mada za kesi za wahudumu.

## Kuongea na mtu (upande wa mtumiaji)

support-button-talk = 💬 Ongea na mtu
support-button-reply = ✍️ Jibu ujumbe
support-connected = 💬 Sasa unaongea na timu yetu ya huduma kwa wateja (kesi { $caseId }). Andika ujumbe wako hapa na mtu atakujibu kwenye gumzo hili.
support-connected-order = 💬 Sasa unaongea na timu yetu ya huduma kwa wateja kuhusu oda { $orderId } (kesi { $caseId }). Andika kilichotokea hapa na mtu atakujibu kwenye gumzo hili.
support-recorded = 📝 Tumerekodi ombi lako kama kesi { $caseId }. Mtu kutoka timu yetu atakujibu hapa, lakini huenda ikachukua muda. Andika maelezo hapa nasi tutayaongeza kwenye kesi yako.
support-recorded-order = 📝 Tumerekodi ombi lako kuhusu oda { $orderId } kama kesi { $caseId }. Mtu kutoka timu yetu atakujibu hapa, lakini huenda ikachukua muda. Andika maelezo hapa nasi tutayaongeza kwenye kesi yako.
support-relay-hint = Kurudi kwenye menyu, tuma /menu au "menyu". Kesi yako inabaki wazi na majibu yetu yatakufikia hapa.
support-case-reopened = Kesi yako { $caseId } imefunguliwa tena.
support-case-existing = Kesi yako { $caseId } tayari iko wazi.
support-case-new = Kesi yako ya awali ilifungwa, kwa hiyo tumefungua mpya: { $caseId }.
support-relay-sent = ✓ Ujumbe wako umefika kwa timu yetu ya huduma kwa wateja.
support-relay-cut = Ujumbe wako ulikuwa mrefu, kwa hiyo sehemu ya kwanza tu imetumwa. Tafadhali tuma iliyobaki kwenye ujumbe mwingine.
support-relay-failed = Samahani, ujumbe wako haukuweza kupitishwa kwa sasa. Tafadhali jaribu tena baada ya muda mfupi.
support-open-failed = Samahani, hatukuweza kufikia dawati letu la huduma kwa sasa. Tafadhali jaribu tena baada ya dakika chache.
support-text-only = Ujumbe wa maandishi pekee ndio unaoweza kupitishwa kwa huduma kwa wateja. Tafadhali eleza tatizo kwa maneno.
support-relay-ended = Umetoka kwenye gumzo la huduma kwa wateja. Kesi yako inabaki wazi na majibu ya timu yetu yatakufikia hapa.
support-reply-prompt = Andika jibu lako kwa timu yetu ya huduma kwa wateja (kesi { $caseId }).
support-agent-message = 💬 Huduma kwa wateja: { $text }
support-resolved = ✅ Timu yetu ya huduma imefunga kesi yako: { $message }
support-resolved-order = ✅ Timu yetu ya huduma imefunga kesi yako kuhusu oda { $orderId }: { $message }
support-resolved-hint = Kama bado kuna tatizo, bonyeza "Ongea na mtu" kwenye menyu ya Msaada au tuma /support.
support-reopened-by-agent = Timu yetu ya huduma imefungua tena kesi yako { $caseId }. Watakuandikia hapa.
support-alerted = 🛟 Tumefungua kesi ya huduma kwa wateja { $caseId } kwa oda { $orderId }. Mtu kutoka timu yetu anaikagua na atakuandikia hapa. Kuongeza maelezo, bonyeza "Ongea na mtu".
support-alerted-general = 🛟 Tumefungua kesi ya huduma kwa wateja { $caseId }. Mtu kutoka timu yetu anaikagua na atakuandikia hapa. Kuongeza maelezo, bonyeza "Ongea na mtu".
support-alerted-offline = 🛟 Tumerekodi kesi ya huduma kwa wateja { $caseId } kwa oda { $orderId }. Mtu kutoka timu yetu atawasiliana nawe hapa, lakini huenda ikachukua muda. Kuongeza maelezo, bonyeza "Ongea na mtu".
support-ticket-by-agent = 🎫 Timu yetu ya huduma imefungua tiketi ya kurejeshewa pesa { $ticketId } kwa oda { $orderId }. Tutakujulisha hapa kukiwa na habari.

## Tiketi za kurejeshewa pesa

support-ticket-ask-order = 🧾 Ni oda gani? Andika nambari ya oda (inaanza na D- kwa manunuzi au WD- kwa mauzo). Kama huna nambari ya oda, bonyeza "Sina nambari ya oda".
support-ticket-button-no-order = Sina nambari ya oda
support-ticket-bad-order = "{ $text }" haionekani kama nambari ya oda. Nambari za oda zinafanana na D-ab12c-3X au WD-ab12c-3X.
support-ticket-ask-description = Kwa maneno machache, nini kilienda vibaya na oda { $orderId }? Kwa mfano: "Nililipa lakini sikupata tokeni".
# Tiketi ya mauzo (#25, safari): mfano wake ni malipo ya M-Pesa ambayo hayakufika.
support-ticket-ask-description-sale = Kwa maneno machache, nini kilienda vibaya na mauzo ya oda { $orderId }? Kwa mfano: "Nilituma tokeni lakini pesa za M-Pesa hazikufika".

support-ticket-button-default-description = Ifungue tu: oda haikufanikiwa
support-ticket-description-short = Tafadhali andika angalau herufi { $min }.
support-ticket-description-long = Tafadhali usizidi herufi { $max }.
support-ticket-filing = ⏳ Tunafungua tiketi ya kurejeshewa pesa kwa oda { $orderId }…
support-ticket-filing-manual = ⏳ Tunafungua tiketi yako ya kurejeshewa pesa…
support-ticket-wait = Tiketi yako inafunguliwa; tafadhali subiri kidogo.
support-ticket-filed = 🎫 Tiketi ya kurejeshewa pesa { $ticketId } imefunguliwa kwa oda { $orderId }. Hifadhi nambari hii: timu yetu itaishughulikia na kukujibu hapa.
support-ticket-existing = 🎫 Oda { $orderId } tayari ina tiketi ya kurejeshewa pesa { $ticketId }. Timu yetu inaishughulikia na itakujibu hapa.
support-ticket-filed-manual = 🎫 Tiketi ya kurejeshewa pesa { $ticketId } imefunguliwa. Hifadhi nambari hii: timu yetu itaishughulikia na kukujibu hapa.
support-ticket-next = Kama unataka kuongeza chochote, ongea na mtu.
support-ticket-refused-onramp-order = Huduma ya malipo haikupata ununuzi ulioshindwa wenye nambari { $orderId }, kwa hiyo haiwezi kupokea tiketi ya kurejeshewa pesa kwa oda hiyo. Marejesho kwa nambari ya oda yanawezekana tu kwa manunuzi yaliyoshindwa au kughairiwa.
support-ticket-refused-offramp-order = Huduma ya malipo haikupata mauzo yaliyoshindwa au yanayosubiri yenye nambari { $orderId }, kwa hiyo haiwezi kupokea tiketi ya kurejeshewa pesa kwa oda hiyo.
support-ticket-refused-fields = Huduma ya malipo inasema baadhi ya maelezo ya tiketi hayapo.
support-ticket-refused = Huduma ya malipo haikukubali tiketi. Ilisema: { $reason }
support-ticket-unavailable = Samahani, hatukuweza kufikia huduma ya malipo kufungua tiketi yako.
support-ticket-offer-person = Kama unaamini hili si sahihi, au pesa zimetoka kwenye akaunti yako, ongea na mtu: tutalikagua pamoja nawe.
support-ticket-cancelled = Tiketi ya kurejeshewa pesa haikufunguliwa.
support-ticket-assets-unavailable = (Hatukuweza kupakua orodha ya tokeni, kwa hiyo huenda ukahitaji kuandika anwani ya tokeni.)
support-ticket-choose = Tafadhali chagua moja ya machaguo, au andika jibu lako.
support-ticket-ask-side = Ilikuwa ununuzi (ulilipa shilingi kwa M-Pesa) au mauzo (ulituma tokeni)?
support-ticket-side-onramp = Ununuzi (M-Pesa kwenda kripto)
support-ticket-side-offramp = Mauzo (kripto kwenda M-Pesa)
support-ticket-ask-phone = Nambari gani ya M-Pesa ilitumika? (mfano 0712 345 678)
support-ticket-button-saved-phone = Tumia { $phone }
support-ticket-bad-phone = "{ $phone }" si nambari ya simu ya Kenya. Tafadhali itume kama 0712 345 678 au +254 712 345 678.
support-ticket-ask-chain = Tokeni zilikuwa kwenye mtandao gani?
support-ticket-ask-symbol = Tokeni gani kwenye { $network }? Chagua moja, au andika alama yake.
support-ticket-bad-symbol = Tafadhali andika alama ya tokeni kama USDT.
support-ticket-ask-token-address = { $symbol } haipo kwenye orodha ya { $network }. Tafadhali tuma anwani ya mkataba wa tokeni hiyo.
support-ticket-bad-token-address = Hiyo si anwani sahihi ya tokeni kwenye { $network }. Tafadhali iangalie na uitume tena.
support-ticket-ask-wallet = Anwani gani ya pochi kwenye { $network } ilitumika?
support-ticket-button-saved-wallet = Tumia { $address }
support-ticket-bad-wallet = Hiyo si anwani sahihi ya pochi kwenye { $network }. Tafadhali iangalie na uitume tena.
support-ticket-bad-wallet-checksum = Anwani hiyo ina kosa mahali fulani (herufi zake za uhakiki hazilingani). Tafadhali inakili tena kutoka kwenye pochi yako.
support-ticket-ask-amount = Ilikuwa { $symbol } ngapi? (mfano 12.5)
support-ticket-bad-amount = Tafadhali tuma kiasi kikubwa kuliko sifuri, kama 12.5.
support-ticket-ask-manual-description = Kwa maneno machache, nini kilienda vibaya?
support-ticket-summary = Tafadhali hakiki tiketi yako ya kurejeshewa pesa:
    • { $side ->
        [onramp] Ununuzi (M-Pesa kwenda kripto)
       *[offramp] Mauzo (kripto kwenda M-Pesa)
    }
    • Nambari ya M-Pesa: { $phone }
    • Mtandao: { $network }
    • Tokeni: { $symbol } ({ $tokenAddress })
    • Pochi: { $wallet }
    • Kiasi: { $amount } { $symbol }
    • Kilichotokea: { $description }
support-ticket-button-file = ✅ Fungua tiketi

## Mada za kesi za wahudumu (kikundi cha huduma)

support-card-title = 🆘 Kesi { $caseId } · { $status ->
        [open] IMEFUNGULIWA
       *[closed] IMEFUNGWA
    }
support-card-reason = Sababu: { support-reason }
support-card-channel = Njia: { $channel } · mtumiaji { $user }
support-card-phone = Simu: { $phone }
support-card-reading = Lugha: { $locale ->
    [sw] Kiswahili
    [en] Kiingereza
   *[other] bado haijulikani
  } · Alichosoma mwisho: { $read ->
    [template] kiolezo tu (jibu zima litaenda atakapoandika)
    [whole] ujumbe mzima
   *[other] bado hakuna kutoka kwa mhudumu
  }
support-card-order = Oda: { $orderId } ({ $side ->
        [onramp] ununuzi
       *[offramp] mauzo
    })
support-card-order-none = Oda: haikutajwa
support-card-state = Hali ya oda: { $status }
support-card-receipt = Risiti ya M-Pesa: { $receipt }
support-card-wallet = Pochi: { $wallet }
support-card-error = Hitilafu ya mwisho: { $error }
support-card-deposit = Kutuma kripto: { $state }
support-card-history = Historia:
support-card-history-more = … matukio { $count } ya awali
support-card-commands = Amri: /status [oda] · /ticket [oda|manual] · /resolve ujumbe · /reopen · /remind [dakika] · /cases
support-event = • { $time } { $what }

support-card-order-history = Mfuatano wa oda:
support-order-created = oda imepokelewa na kifuatiliaji
support-order-status = hali kwenye huduma ya malipo: { $status }
support-order-status-receipt = hali kwenye huduma ya malipo: { $status }, risiti ya M-Pesa { $receipt }
support-order-status-failed = hali kwenye huduma ya malipo: { $status }: { support-order-failure }
support-order-failure = { $reason ->
        [insufficient-balance] hakukuwa na pesa za kutosha kwenye M-Pesa
        [cancelled] ombi la M-Pesa lilighairiwa
        [timeout] muda wa ombi la M-Pesa uliisha
        [wrong-pin] PIN ya M-Pesa haikukubaliwa
        [limit] kiasi kimezidi kikomo cha M-Pesa
        [other] M-Pesa ilitoa sababu kwa maneno yake
       *[unknown] hakuna sababu iliyotolewa
    }
support-order-deposit-intent = kutuma kripto kumeanza
support-order-deposit-sent = kripto imetumwa: { $hash }
support-order-deposit-unknown = matokeo ya kutuma kripto hayajulikani ({ $reason }), historia ya malipo inakaguliwa
support-order-deposit-refused = huduma ya malipo ilikataa kutuma kripto ({ $reason }), hakuna kilichotumwa
support-order-reconciled = muamala wa kripto umepatikana kwenye historia ya malipo: { $hash }
support-order-escalated = imekabidhiwa kwa huduma kwa wateja: { support-reason }
support-order-final = ujumbe wa mwisho umetumwa kwa mtumiaji: { $outcome ->
        [success] imekamilika
        [failed] imeshindwa
        [cancelled] imeghairiwa
        [escalated] imekabidhiwa kwa huduma kwa wateja
       *[other] { $outcome }
    }

support-reason = { $reason ->
        [horizon] oda imepita muda wake
        [deposit_unknown] kutuma kripto hakukuweza kuthibitishwa
        [deposit_refused] kutuma kripto kulikataliwa
        [sell_refused] mauzo yalikataliwa baada ya tokeni kufika kwenye mtandao
        [filing_unknown] matokeo ya kusajili mauzo hayajulikani
        [stk_unknown] ombi la M-Pesa la ununuzi huenda lilitumwa, lakini oda yake haijulikani
        [undeliverable] ujumbe haukuweza kumfikia mtumiaji kwenye WhatsApp
        [user] mtumiaji aliomba kuongea na mtu
        [refund_ticket] mtumiaji amefungua tiketi ya kurejeshewa pesa
       *[other] { $reason }
    }

support-event-opened = kesi imefunguliwa: { support-reason }
support-event-escalated = imepandishwa: { support-reason }
support-event-reopened = imefunguliwa tena na { $by ->
        [user] mtumiaji
        [system] mfumo
       *[other] mhudumu { $by }
    }
support-event-user-message = mtumiaji aliandika: { $text }
support-event-agent-message = mhudumu { $agent } aliandika: { $text }
support-event-status = hali imekaguliwa na mhudumu { $agent }: { $status }
support-event-ticket = tiketi { $ticketId } imefunguliwa na { $by ->
        [user] mtumiaji
        [system] mfumo
       *[other] mhudumu { $by }
    }
support-event-resolved = imefungwa na mhudumu { $agent }: { $text }
support-event-note = { $text }

support-topic-user-message = 👤 Mtumiaji: { $text }
support-topic-escalated = ⚠️ Imepandishwa: { support-reason }
support-topic-escalated-detail = Maelezo: { $detail }
support-topic-status = 🔎 Oda { $orderId } iko katika hali { $status }.
support-topic-status-receipt = Risiti ya M-Pesa: { $receipt }
support-topic-status-failed = Hatukuweza kukagua oda: { $error }
support-topic-no-order = Kesi hii haina oda, kwa hiyo hakuna cha kukagua wala kufungua kwa nambari ya oda.
support-topic-ticket = 🎫 Tiketi { $ticketId } imefunguliwa kwa oda { $orderId }; mtumiaji ameambiwa.
support-topic-ticket-existing = 🎫 Oda { $orderId } tayari ina tiketi { $ticketId }.
support-topic-ticket-failed = Huduma ya malipo haikupokea tiketi: { $reason }
support-topic-user-ticket = 🎫 Mtumiaji amefungua tiketi { $ticketId } kwa oda hii.
support-topic-resolved = ✅ Imefungwa na { $agent }. Mtumiaji ameambiwa: { $message }
support-topic-reopened = 🔄 Kesi imefunguliwa tena na { $by ->
        [user] mtumiaji
        [system] mfumo
       *[other] mhudumu { $by }
    }.
support-topic-already-open = Kesi hii tayari iko wazi.
support-topic-already-closed = Kesi hii tayari imefungwa.
support-topic-not-agent = ⛔ Wahudumu wa huduma kwa wateja pekee ndio wanaoweza kushughulikia kesi. Ujumbe wako haukupitishwa.
support-topic-closed = Kesi hii imefungwa, kwa hiyo ujumbe wako haukupitishwa. Tuma /reopen kwanza.
support-topic-resolve-usage = Andika ujumbe kwa mtumiaji baada ya amri, mfano /resolve Pesa zako zimerudishwa.
support-topic-non-text = Maandishi pekee ndiyo hupitishwa kwa mtumiaji.
support-topic-delivery-failed = Ujumbe wako haukuweza kumfikia mtumiaji.
support-topic-help = Amri kwenye mada ya kesi: /status [oda] hukagua oda kwa huduma ya malipo sasa hivi, /ticket [oda] hufungua tiketi ya oda (/ticket manual hufungua tiketi ya fomu kwa taarifa za oda), /resolve ujumbe hufunga kesi na kumtumia mtumiaji ujumbe huo, /reopen huifungua tena, /remind [dakika] huangalia oda tena baadaye, /cases huorodhesha kesi zilizo wazi. Maandishi mengine yoyote hupitishwa kwa mtumiaji. Kwenye kesi iliyowekwa alama "si oda ya muombaji" hakuna kinachofunguliwa; ni /ticket not-their-order confirm pekee inayofungua tiketi ya oda hiyo (pesa hurejeshwa kwa nambari ya mwenye oda; muombaji haambiwi nambari ya tiketi).

support-terminal-no-desk = Msaada: hakuna kikundi cha huduma kilichowekwa (SUPPORT_CHAT_ID), kwa hiyo kesi zinahifadhiwa na kuandikwa kwenye kumbukumbu tu.
support-ticket-not-owner = Oda { $orderId } si moja uliyofanya hapa, kwa hivyo siwezi kufungua tiketi ya kurejeshewa pesa kutoka kwenye gumzo hili. Nimepeleka ombi lako kwa timu yetu ya huduma (kesi { $caseId }); wakala ataliangalia na kukujibu hapa.
support-topic-ticket-not-owner = ⚠️ Mtumiaji aliomba tiketi ya kurejeshewa pesa kwa oda { $orderId }, ambayo SI oda yake (ya mtumiaji mwingine, au haikufanywa kupitia rampchat). Hakuna tiketi iliyofunguliwa. Kagua kwa mkono kabla ya kuchukua hatua.
support-card-not-owner = Oda: { $orderId } ⚠️ si oda ya muombaji (ya mtumiaji mwingine, au haikufanywa hapa); maelezo yake hayaonyeshwi
support-ticket-uncertain = Sikuweza kuthibitisha kuwa tiketi yako ya kurejeshewa pesa iliwasilishwa: huduma haikujibu waziwazi. Mtu kutoka timu yetu ataikagua (kesi { $caseId }) na kukujulisha hapa. Tafadhali usiiwasilishe tena.
support-topic-ticket-uncertain = ⚠️ Tiketi ya kurejeshewa pesa ya oda { $orderId } huenda imewasilishwa au la (huduma ilijibu: { $detail }). Kagua kwenye huduma kabla ya kuiwasilisha tena.

## Dawati la msaada kama wahudumu wanavyolitumia (issue #23)

support-relay-recorded = 📝 Imeongezwa kwenye kesi yako { $caseId }. Hakuna timu ya huduma iliyounganishwa sasa hivi: mtu ataisoma timu itakapounganishwa.
support-relay-sent-case = ✓ Ujumbe wako umefika kwa timu yetu ya huduma kwa wateja (kesi { $caseId }). Watakujibu hapa.
support-topic-delivered = ✓ Umemfikia mtumiaji.
support-topic-sent-template = 📨 Dirisha la saa 24 la WhatsApp limefungwa: mtumiaji amepata jibu lako kama kiolezo kilichoidhinishwa, kwa { $locale ->
    [sw] Kiswahili
   *[en] Kiingereza
  }. { $held ->
    [yes] Kiolezo hakikuweza kubeba lote: jibu zima litamfikia mara moja, atakapoandika tena.
   *[no] Kiolezo kimebeba lote.
  }
support-topic-held-delivered = 📨 Mtumiaji ameandika tena na amepata jibu lako zima wakati huo, kwa { $locale ->
    [sw] Kiswahili
   *[en] Kiingereza
  }.
support-topic-not-delivered = ⚠️ Haukumfikia mtumiaji: { $reason }
support-topic-user-ticket-manual = 🎫 Mtumiaji amefungua tiketi ya ramp { $ticketId } kupitia fomu (bila nambari ya oda).
support-topic-user-ticket-description = Alichoandika mtumiaji: { $text }
support-resolved-plain = ✅ Timu yetu ya huduma imefunga kesi yako.
support-resolved-order-plain = ✅ Timu yetu ya huduma imefunga kesi yako kuhusu oda { $orderId }.
support-topic-order-not-users = ⚠️ Oda { $orderId } si ya mtumiaji huyu hapa, kwa hiyo haikuunganishwa na hakuna kilichofanywa nayo.
support-topic-linked = 🔗 Kesi hii sasa inahusu oda { $orderId }.
support-topic-status-message = Ramp inasema: { $message }
support-topic-ticket-manual-missing = Taarifa za oda { $orderId } zinazohitajika kwa tiketi ya fomu (simu, kiasi, pochi, tokeni) hazijulikani, kwa hiyo hakuna tiketi iliyofunguliwa. Ifungue kwenye ramp kwa mkono.
support-topic-ticket-busy = Mhudumu mwingine anafungua tiketi ya { $orderId } sasa hivi; nambari yake itaonekana hapa.
support-topic-ticket-refused-recent = Ramp ilikataa tiketi hii ya { $orderId } sekunde { $seconds } zilizopita ({ $reason }); hatua inayofuata iko juu. Hakuna kilichowasilishwa tena.
support-topic-next-pending = ⏭ Kinachofuata: oda { $orderId } bado inasubiri, na ramp inakubali tiketi kwa nambari ya oda tu ununuzi ukishindikana au kughairiwa. Angalia tena (🔎 Hali), niangalie baada ya dakika 30 (⏰ Nikumbushe), au fungua tiketi ya fomu kwa taarifa za oda (📝 Tiketi ya fomu) kama pesa za mtumiaji zimekwama.
support-topic-next-success = ⏭ Kinachofuata: oda { $orderId } imefanikiwa kwenye ramp, kwa hiyo hakuna cha kurejesha. Muulize mtumiaji anachokosa (risiti na muamala viko kwenye kadi).
support-topic-next-other = ⏭ Kinachofuata: angalia oda { $orderId } tena (🔎 Hali), niangalie baada ya dakika 30 (⏰ Nikumbushe), au fungua tiketi ya fomu kwa taarifa za oda (📝 Tiketi ya fomu).
support-desk-button-status = 🔎 Hali
support-desk-button-ticket = 🎫 Tiketi
support-desk-button-resolve = ✅ Maliza
support-desk-button-reopen = 🔄 Fungua tena
support-desk-button-remind = ⏰ Nikumbushe baada ya dak. 30
support-desk-button-manual = 📝 Tiketi ya fomu
support-topic-resolved-plain = ✅ Imefungwa na { $agent }. Mtumiaji ameambiwa kesi imefungwa.
support-topic-resolved-not-delivered = ✅ Imefungwa na { $agent }. ⚠️ Haukumfikia mtumiaji: { $reason }
support-topic-remind-set = ⏰ { $agent }: nitaangalia oda tena baada ya dakika { $minutes } na kuweka jibu hapa.
support-topic-remind-due = ⏰ Ukumbusho kwa { $agent }:
support-cases-none = Hakuna kesi zilizo wazi.
support-cases-title = 📋 Kesi zilizo wazi, za zamani kwanza ({ $count }):
support-cases-line = • { $caseId } · { $orderId } · { support-reason } · wazi dak. { $age } · { $link }
support-card-money-buy = Amelipa: KSh { $paid } · atapokea { $tokens } { $symbol } kwenye { $network }
support-card-money-buy-fee = Amelipa: KSh { $paid } (KSh { $amount } + ada KSh { $fee }) · atapokea { $tokens } { $symbol } kwenye { $network }
support-card-money-sale = Ametuma: { $tokens } { $symbol } kwenye { $network } · atapokea KSh { $kes } kwa M-Pesa
support-card-tx-kind = { $side ->
        [offramp] Muamala kwenda akaunti ya dhamana
       *[onramp] Muamala wa kutuma kripto
    }: <a href="{ $url }">{ $hash }</a>
support-card-tx-kind-plain = { $side ->
        [offramp] Muamala kwenda akaunti ya dhamana
       *[onramp] Muamala wa kutuma kripto
    }: { $hash }
support-card-ticket-state = Tiketi ya ramp: { $ticketId } · imefunguliwa na { $by ->
        [user] mtumiaji
        [system] mfumo
       *[other] { $by }
    } (ramp haionyeshi hali za tiketi: ifuatilie huko)
support-card-tracker-stage = Kifuatiliaji: { $stage }, ukaguzi { $polls } wa hali
support-card-told = 🗣 Mtumiaji aliambiwa mwisho:
support-card-next = ⏭ Kinachofuata: { $step ->
        [closed] hakuna; /reopen mtumiaji akirudi.
        [ask-order] muulize mtumiaji nambari ya oda (D-… au WD-…); akiiandika, kesi inaunganishwa.
        [not-owner] oda hii si ya mtumiaji: kagua kwa mkono kabla ya kufanya lolote. Tiketi ni kwa /ticket not-their-order confirm pekee (pesa hurejeshwa kwa nambari ya mwenye oda; mtumiaji haambiwi).
        [release-unknown] kutuma kripto hakujathibitishwa: angalia pochi kwenye tovuti ya kufuatilia miamala kwanza.
        [follow-ticket] fuatilia tiketi kwenye ramp; /resolve na matokeo pesa zikirudishwa.
        [file-ticket] fungua tiketi ya kurejeshewa pesa (🎫 Tiketi) na umwambie mtumiaji.
        [check-release] malipo yamefanikiwa lakini kripto haijulikani kutumwa: angalia pochi kwenye tovuti ya kufuatilia miamala.
        [success] oda imefanikiwa: muulize mtumiaji anachokosa.
        [pending] oda bado inasubiri: angalia tena (🔎 Hali) au /remind 30.
       *[check-status] angalia oda sasa (🔎 Hali).
    }
support-order-payout-failed = hali ya ramp { $status }: { $reason ->
        [timeout] malipo ya M-Pesa yalichelewa kupita muda
        [cancelled] malipo yalighairiwa
        [limit] malipo yalizidi kikomo cha M-Pesa
        [number] nambari ya simu haiwezi kupokea M-Pesa
        [other] sababu iliyotolewa na M-Pesa kwa maneno yake
       *[unknown] hakuna sababu iliyotolewa
    }
support-event-resolved-plain = imefungwa na mhudumu { $agent }
support-button-not-agent = Ni wahudumu wa huduma kwa wateja pekee wanaoweza kushughulikia kesi.

## Limits on costly support actions (issue #24)

support-limited = ⏳ Umefungua kesi kadhaa za huduma kwa wateja hivi karibuni, kwa hiyo sikufungua nyingine. Unaweza kujaribu tena baada ya takriban { $unit ->
        [hours] saa { $hours }
       *[minutes] dakika { $minutes }
    }. Kesi uliyo nayo wazi bado inafika kwa timu yetu: andika tu ndani yake.
support-ticket-limited = ⏳ Umefungua tiketi kadhaa za kurejeshewa pesa hivi karibuni, kwa hiyo sikufungua hii. Unaweza kujaribu tena baada ya takriban { $unit ->
        [hours] saa { $hours }
       *[minutes] dakika { $minutes }
    }. Kama pesa yako imekwama, iandikie timu yetu kwenye kesi uliyo nayo wazi.
support-topic-ticket-not-owner-refused = ⚠️ Hakuna tiketi iliyofunguliwa: oda { $orderId } SI ya mtumiaji huyu (ya mtumiaji mwingine, au haikufanywa hapa). Tiketi yake ni marejesho ya mwenye oda, kwa nambari yake. Baada tu ya kukagua kwa mkono, ifungue hata hivyo kwa: /ticket { $override } (mtumiaji hataambiwa nambari yake).
support-topic-ticket-not-owner-filed = 🎫 Tiketi { $ticketId } imefunguliwa kwa oda { $orderId } na { $agent }, licha ya onyo kwamba SI oda ya mtumiaji huyu. Mtumiaji hakuambiwa nambari yake.

# Recovery could not put a support conversation back after a service interruption.
support-case-lost-after-outage = ⚠️ Baada ya huduma kukatizwa, mazungumzo yako na timu yetu ya msaada hayakuweza kurejeshwa. Tafadhali tuma /support na utueleze tena unachohitaji; samahani kwa usumbufu.
