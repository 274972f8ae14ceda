# Msaada na jinsi ya kufikia huduma kwa wateja.

help-intro = Ninakusaidia kununua crypto kwa M-Pesa na kuangalia bei. Tokeni zinatumwa moja kwa moja kwenye pochi yako, na unalipa tu kupitia ombi la M-Pesa kwenye simu yako.
help-commands = Amri: /buy kununua tokeni (kwa mfano /buy 1000 USDT polygon), /quote kuangalia bei, /history kwa oda zilizopita, /settings kwa nambari yako na pochi zako, /language kubadilisha lugha, /cancel kusimamisha unachofanya, /menu kwa menyu kuu.
help-button-person = 💬 Ongea na mtu
help-button-ticket = 🧾 Fungua tiketi ya kurejeshewa pesa
help-support-info = Timu yetu ya huduma kwa wateja hushughulikia oda zilizoshindwa au zilizokwama na marejesho ya pesa. Kuwa na nambari ya oda yako tayari (inaanza na D- kwa manunuzi, WD- kwa mauzo) na ujumbe wako wa M-Pesa kama unao. Usimpe mtu yeyote PIN yako ya M-Pesa wala maneno ya siri ya pochi yako, hata sisi.
