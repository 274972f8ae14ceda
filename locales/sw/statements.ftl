# Taarifa za kila mwezi (src/statements): /taarifa, /taarifa oktoba, /taarifa 2026-09.
# Maandishi yanayoingia kwenye PDF ni ya herufi za Kilatini tu (fonti ya PDF ni Helvetica).

statements-month-name = { $month ->
    [1] Januari
    [2] Februari
    [3] Machi
    [4] Aprili
    [5] Mei
    [6] Juni
    [7] Julai
    [8] Agosti
    [9] Septemba
    [10] Oktoba
    [11] Novemba
   *[12] Desemba
}

statements-caption = 📄 Taarifa yako ya { statements-month-name } { $year }: oda { $orders }, kama PDF na CSV (ya kufungua kwenye spreadsheet).
statements-empty = Hukufanya oda yoyote mwezi wa { statements-month-name } { $year }, kwa hiyo hakuna taarifa yake. Jaribu mwezi mwingine, kwa mfano /taarifa { $year }-01.
statements-month-unknown = Sikuweza kujua "{ $words }" ni mwezi gani. Taja mwezi, kwa mfano /taarifa oktoba, /taarifa 2026-09, au /taarifa peke yake kwa mwezi huu.
statements-month-future = { statements-month-name } { $year } bado haujafika. Omba mwezi huu au mwezi uliopita, kwa mfano /taarifa oktoba.
statements-failed = Samahani, taarifa haikuweza kutengenezwa sasa hivi. Tafadhali jaribu tena baada ya dakika moja.
statements-file = taarifa

statements-title = Taarifa ya { statements-month-name } { $year }
statements-period = Kipindi: { $first } hadi { $last }, saa za Nairobi (Africa/Nairobi, UTC+3). Kiasi ni kama oda zilivyokiandika.
statements-totals-heading = Jumla (oda zilizokamilika)
statements-total-buy = Manunuzi: { $count } kati ya { $orders } yamekamilika
statements-total-sell = Mauzo: { $count } kati ya { $orders } yamekamilika
statements-total-tokens-in = Tokeni zilizopokelewa
statements-total-tokens-out = Tokeni zilizotumwa
statements-total-tokens-fees = Ada za mauzo kwa tokeni

statements-col-date = Tarehe (Nairobi)
statements-col-order = Nambari ya oda
statements-col-side = Aina
statements-col-state = Hali
statements-col-network = Mtandao
statements-col-token = Tokeni
statements-col-tokens = Kiasi cha tokeni
statements-col-amount = Kiasi KES
statements-col-fee = Ada KES
statements-col-feeTokens = Ada (tokeni)
statements-col-paid = Ulicholipa KES
statements-col-received = Ulichopokea KES
statements-col-receipt = Risiti ya M-Pesa
statements-col-hash = Kitambulisho cha muamala
statements-col-period = Kipindi

statements-side-buy = Nunua
statements-side-sell = Uza
statements-state-completed = Imekamilika
statements-state-failed = Imeshindwa
statements-state-cancelled = Imesitishwa
statements-state-pending = Inasubiri
statements-state-support = Iko kwa huduma kwa wateja
