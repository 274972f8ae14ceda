# Maandishi ya Telegram. Maelezo ya amri yanaonekana kwenye menyu ya amri ya boti.

tg-command-start = Anza upya na uone menyu kuu
tg-command-menu = Onyesha menyu kuu
tg-command-quote = Angalia bei ya sasa
tg-command-settings = Lugha, nambari na pochi zilizohifadhiwa
tg-command-buy = Nunua kripto kwa M-Pesa
tg-command-sell = Uza kripto upate M-Pesa
tg-command-history = Tazama oda zako za awali
tg-command-save = Ununuzi wa kudumu: akiba ya kila wiki au mwezi
tg-command-alerts = Arifa za bei: ujulishwe bei ikifika kiwango chako
tg-command-price = Chati ya bei ya tokeni: bei ya kununua na kuuza kwa saa 24, siku 7 au 30
tg-command-statement = Oda za mwezi huu kama PDF na CSV (au /taarifa oktoba)
tg-command-receipt = Risiti ya oda iliyokamilika kama picha (/risiti na nambari ya oda)
tg-command-help = Jinsi boti hii inavyofanya kazi
tg-command-support = Ongea na mhudumu
tg-command-cancel = Ghairi unachofanya

tg-share-phone = 📱 Tuma nambari yangu ya simu
tg-share-phone-placeholder = Au andika nambari yako ya M-Pesa
tg-share-phone-hint = Unaweza pia kubonyeza kitufe kilicho hapa chini kutuma nambari ya akaunti hii ya Telegram.
tg-phone-received = Asante, nimepokea nambari yako.
tg-contact-not-yours = Tafadhali tuma nambari yako mwenyewe kwa kitufe kilicho hapa chini, au andika nambari yako ya M-Pesa.
tg-unsupported = Ninaweza kusoma ujumbe wa maandishi na kubonyeza vitufe tu. Tuma /start kuona menyu.
tg-error = Samahani, hitilafu imetokea upande wetu. Tafadhali jaribu tena baada ya muda mfupi.
tg-button-stale = Kitufe hicho kiko kwenye ujumbe wa zamani. Tafadhali tumia ujumbe wa karibuni.
