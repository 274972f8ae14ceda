# Maandishi ya Telegram. Maelezo ya amri yanaonekana kwenye menyu ya amri ya boti.

tg-command-start = Anza upya na uone menyu kuu
tg-command-menu = Onyesha menyu kuu
tg-command-quote = Angalia bei ya sasa
tg-command-settings = Lugha, namba na pochi zilizohifadhiwa
tg-command-buy = Nunua crypto kwa M-Pesa
tg-command-sell = Uza crypto upate M-Pesa
tg-command-history = Tazama oda zako za awali
tg-command-help = Jinsi boti hii inavyofanya kazi
tg-command-support = Ongea na mhudumu
tg-command-cancel = Ghairi unachofanya

tg-share-phone = 📱 Tuma namba yangu ya simu
tg-share-phone-placeholder = Au andika namba yako ya M-Pesa
tg-share-phone-hint = Unaweza pia kubonyeza kitufe kilicho hapa chini kutuma namba ya akaunti hii ya Telegram.
tg-phone-received = Asante, nimepokea namba yako.
tg-contact-not-yours = Tafadhali tuma namba yako mwenyewe kwa kitufe kilicho hapa chini, au andika namba yako ya M-Pesa.
tg-unsupported = Ninaweza kusoma ujumbe wa maandishi na kubonyeza vitufe tu. Tuma /start kuona menyu.
tg-error = Samahani, hitilafu imetokea upande wetu. Tafadhali jaribu tena baada ya muda mfupi.
tg-button-stale = Kitufe hicho kiko kwenye ujumbe wa zamani. Tafadhali tumia ujumbe wa karibuni.
