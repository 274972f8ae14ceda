# Msaada na jinsi ya kufikia huduma kwa wateja.

help-intro = Ninakusaidia kununua na kuuza kripto kwa M-Pesa: nunua tokeni na ulipe kupitia ombi la M-Pesa kwenye simu yako, uza tokeni upokee shilingi kwenye M-Pesa, angalia bei, tazama oda zako za awali na uongee na mtu kukiwa na tatizo. Tokeni zinatumwa moja kwa moja kwenye pochi yako.
help-commands = Amri: /buy kununua tokeni (kwa mfano /buy 1000 USDT polygon), /sell kuuza tokeni upate M-Pesa (kwa mfano /sell 1000 KES USDT polygon), /quote kuangalia bei, /history kwa oda zilizopita, /receipt (au /risiti) na nambari ya oda kupata risiti ya oda iliyokamilika kama picha, /support kuongea na mtu, /ticket kuomba kurejeshewa pesa za oda iliyoshindwa, /save (au /weka) kwa ununuzi wa kudumu (kwa mfano /weka 500 KES USDT kila ijumaa; /savings inaonyesha yako), /settings kwa nambari yako ya simu na pochi zako, /language kubadilisha lugha, /cancel kusimamisha unachofanya, /menu kwa menyu kuu.
help-button-person = 💬 Ongea na mtu
help-button-ticket = 🧾 Omba marejesho
help-support-info = Timu yetu ya huduma kwa wateja hushughulikia oda zilizoshindwa au zilizokwama na marejesho ya pesa. Kuwa na nambari ya oda yako tayari (inaanza na D- kwa manunuzi, WD- kwa mauzo) na ujumbe wako wa M-Pesa kama unao. Usimpe mtu yeyote PIN yako ya M-Pesa wala maneno ya siri ya pochi yako, hata sisi.
help-commands-alerts = Arifa za bei: /alert USDT chini ya 128 inakujulisha mara moja USDT 1 ikinunulika kwa KES 128 au chini (au /alert USDT juu ya 135 ikiuzwa kwa zaidi); /alerts inaziorodhesha ili uzibadilishe, uongeze muda au uzifute.
help-commands-charts = Chati za bei: /price USDT inatuma picha ya bei yake ya kununua na kuuza kwa saa 24, na vitufe vya siku 7 na 30.
help-commands-statements = Taarifa: /taarifa (au /statement) inatuma oda za mwezi huu kama PDF na CSV; /taarifa oktoba au /taarifa 2026-09 kwa mwezi uliopita.
