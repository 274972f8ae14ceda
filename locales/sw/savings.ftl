# Ununuzi wa kudumu: akiba ya M-Pesa kila wiki, mwezi au siku kwenda tokeni (/save, /savings).

savings-menu = 🗓 Ununuzi wa kudumu
savings-usage = Kuweka akiba mara kwa mara, andika kwa mfano: /weka 500 KES USDT kila ijumaa, /weka 500 USDT polygon kila wiki, /weka 1000 USDT kila mwezi tarehe 1, au /weka 200 USDT kila siku saa 1 asubuhi. Kila mara nitakutumia ukumbusho wenye Lipa sasa: hakuna kinachotumwa hadi uweke PIN yako ya M-Pesa. /savings inaonyesha ununuzi wako wa kudumu.
savings-bad-schedule = Sikuweza kusoma "{ $word }" kama siku au saa.
savings-no-token = Tokeni ipi? Taja moja kati ya: { $tokens }.
savings-not-on-network = { $token } haiwezi kununuliwa kwenye { $network }.
savings-every-day = Kila siku saa { $hour } (saa za Nairobi).
savings-every-week = Kila { $day ->
    [1] Jumatatu
    [2] Jumanne
    [3] Jumatano
    [4] Alhamisi
    [5] Ijumaa
    [6] Jumamosi
   *[7] Jumapili
  } saa { $hour } (saa za Nairobi).
savings-every-month = Kila mwezi tarehe { $day } saa { $hour } (saa za Nairobi; mwezi mfupi zaidi, siku yake ya mwisho).
savings-summary = Ununuzi wa kudumu: { $kes } za { $token } kwenye { $network }, kwenda { $wallet }, kulipwa kutoka { $phone }. Mara ya kwanza: { $first }.
savings-summary-note = Kila mara nitakutumia ukumbusho wenye Lipa sasa na bei mpya; ombi la M-Pesa bado linahitaji PIN yako. Usipolipa ndani ya saa chache, zamu hiyo inapita.
savings-button-confirm = ✅ Thibitisha
savings-tap-confirm = Bonyeza Thibitisha kuhifadhi ununuzi huu wa kudumu, au Ghairi.
savings-created = Imehifadhiwa. Ukumbusho wa kwanza: { $first }. /savings inaonyesha ununuzi wako wa kudumu.
savings-too-many = Tayari una ununuzi wa kudumu { $max }. Ghairi mmoja kwanza kwenye /savings.
savings-not-found = Ununuzi huo wa kudumu haupo tena.
savings-list-empty = Bado huna ununuzi wa kudumu.
savings-list-title = Ununuzi wako wa kudumu:
savings-list-plan = { $n }. { $kes } za { $token } kwenye { $network } kwenda { $wallet }. Ijayo: { $next }.
savings-list-plan-paused = { $n }. { $kes } za { $token } kwenye { $network } kwenda { $wallet }. Umesimamishwa.
savings-run-sent = · Zamu { $run } ({ $period }): ukumbusho umetumwa, unakusubiri.
savings-run-paid = · Zamu { $run } ({ $period }): imelipwa, oda { $orderId }.
savings-run-skipped = · Zamu { $run } ({ $period }): imerukwa.
savings-run-missed = · Zamu { $run } ({ $period }): imepita (haikulipwa kwa wakati).
savings-button-pause = ⏸ Simamisha { $n }
savings-button-resume = ▶️ Endelea { $n }
savings-button-change = ✏️ Badilisha { $n }
savings-button-cancel = 🗑 Ghairi { $n }
savings-button-list = 🗓 Ununuzi wa kudumu
savings-paused = Umesimamishwa. Hakuna ukumbusho hadi uuendeleze kwenye /savings.
savings-resumed = Umeendelezwa. Ukumbusho ujao: { $next }.
savings-cancelled = Umeghairiwa. Hakuna ukumbusho tena kwa huu.
savings-changed = Umebadilishwa. Ukumbusho ujao: { $next }.
savings-change-ask = Andika kiasi kipya (mf. 700) au siku mpya (mf. kila jumatatu, kila mwezi tarehe 15, kila siku saa 2 asubuhi).
savings-reminder = Akiba yako ya { $every ->
    [daily] kila siku
    [weekly] kila wiki
   *[monthly] kila mwezi
  }: KSh { $kes } → takriban { $about } { $token } kwenda { $wallet }.
savings-reminder-plain = Akiba yako ya { $every ->
    [daily] kila siku
    [weekly] kila wiki
   *[monthly] kila mwezi
  }: KSh { $kes } za { $token } kwenda { $wallet }.
savings-button-pay = 💳 Lipa sasa
savings-button-skip = ⏭ Ruka mara hii
savings-paying = Ununuzi wa kudumu, zamu { $run }: ombi la M-Pesa la { $total } (ada ya { $fee } imejumuishwa) linatumwa kwa { $phone }, kwa { $amount } kwenda { $wallet }.
savings-skipped = Zamu { $run } imerukwa. Mpango unaendelea kama kawaida.
savings-run-closed-passed = Zamu hii imepita; hakuna kilichotumwa. Ukumbusho ujao utakuja siku inayofuata ya mpango.
savings-run-closed-paid = Zamu hii imeshalipwa (oda { $orderId }).
savings-run-closed-skipped = Zamu hii ilirukwa; hakuna kilichotumwa.
savings-invalid-wallet = Ununuzi wako wa kudumu wa { $token } umesimamishwa: anwani ya pochi yake si sahihi tena. Uweke upya kwa /weka.
savings-invalid-phone = Ununuzi wako wa kudumu wa { $token } umesimamishwa: nambari yake ya M-Pesa si sahihi tena. Uweke upya kwa /weka.
savings-invalid-token = Ununuzi wako wa kudumu wa { $token } umesimamishwa: tokeni hiyo haitolewi tena kwenye mtandao wake. Weka mwingine kwa /weka.
savings-history-run = Ununuzi wa kudumu, zamu { $run }:
savings-history-runs = Ununuzi wa kudumu, zamu ambazo hazikununua kitu:
savings-history-skipped = · Ununuzi wa kudumu wa { $kes } za { $token }, zamu { $run } ({ $period }): imerukwa.
savings-history-missed = · Ununuzi wa kudumu wa { $kes } za { $token }, zamu { $run } ({ $period }): imepita (haikulipwa kwa wakati).
savings-lost-after-outage = ⚠️ Baada ya huduma kukatizwa, mpango wako mmoja wa ununuzi wa kudumu haukuweza kurejeshwa (huna nafasi tupu kwa ajili yake). Tafadhali angalia mipango yako na uuweke tena ikiwa bado unauhitaji.
