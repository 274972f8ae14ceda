# Oda zilizopita za pochi.

history-ask-wallet = Ungependa kuona historia ya pochi ipi?
history-button-other-wallet = 👛 Pochi nyingine
history-ask-network = Pochi hiyo iko kwenye mtandao gani?
history-ask-address = Tuma anwani ya pochi ya { $network }.
history-title = { $side ->
    [offramp] Mauzo
   *[onramp] Manunuzi
} ya { $address } { $network }:
history-record-buy = { $date }: ulinunua { $crypto } kwa { $kes } (oda { $orderId }, M-Pesa { $receipt })
history-record-sell = { $date }: uliuza, ukapokea { $kes } (oda { $orderId }, M-Pesa { $receipt })
history-empty = Hakuna miamala iliyopatikana.
history-page = Ukurasa { $page } kati ya { $pages }
history-button-previous = ◀️ Iliyotangulia
history-button-next = Inayofuata ▶️
history-button-sells = Onyesha mauzo
history-button-buys = Onyesha manunuzi
